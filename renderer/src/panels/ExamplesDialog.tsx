/** The examples gallery: each example opens as a copy in the workspace, ready to run. */
import { useEffect, useState } from 'react';
import { host } from '../host.ts';
import { useUi } from '../ui/uiStore.ts';
import { openExample } from '../documents/actions.ts';
import { Modal } from './Modal.tsx';

type Example = { id: string; name: string; description: string; path: string };

export function ExamplesDialog() {
  const open = useUi((s) => s.dialog === 'examples');
  const [list, setList] = useState<Example[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!open) return;
    host()
      .listExamples({})
      .then(setList, (e) => setError(String(e?.message ?? e)));
  }, [open]);
  if (!open) return null;
  return (
    <Modal title="Examples" testId="examples-dialog" wide>
      {error && <div className="field__error">{error}</div>}
      {!list && !error && <div className="note">Loading…</div>}
      <div className="gallery">
        {list?.map((x) => (
          <button
            type="button"
            key={x.id}
            className="gallery__card"
            data-testid={`example-${x.id}`}
            onClick={() => {
              void openExample(x.id);
            }}
          >
            <div className="gallery__name">{x.name}</div>
            <div className="gallery__desc">{x.description}</div>
            <div className="gallery__path">{x.path}</div>
          </button>
        ))}
      </div>
    </Modal>
  );
}
