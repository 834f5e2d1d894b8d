/** Served-mode document dialogs: open from the workspace (with recent files) and save as. */
import { useEffect, useState } from 'react';
import type { FileEntry } from '../../../engine/host/common/api.ts';
import { host, hostInfo } from '../host.ts';
import { docStore } from '../state.ts';
import { openDialog, useUi } from '../ui/uiStore.ts';
import { openPath, saveTo } from '../documents/actions.ts';
import { recentPaths } from '../documents/recent.ts';
import { Modal } from './Modal.tsx';
import { displayPath } from '../documents/paths.ts';

const JOB_FILE = /\.json$/i;
/** What Open lists: jobs, and Flink SQL scripts (opened in Import Flink SQL). */
const OPENABLE = /\.json$|\.sql$/i;

function OpenDialog() {
  const [files, setFiles] = useState<FileEntry[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const recent = recentPaths();
  useEffect(() => {
    host()
      .listFiles({})
      .then(
        (f) => setFiles(f.filter((x) => OPENABLE.test(x.name))),
        (e) => setError(String(e?.message ?? e)),
      );
  }, []);
  const open = (p: string) => {
    openDialog(null);
    void openPath(p);
  };
  return (
    <Modal title="Open a pipeline or a Flink SQL script" testId="open-dialog">
      {recent.length > 0 && (
        <>
          <h3 className="modal__section">Recent</h3>
          <ul className="filelist" data-testid="recent-list">
            {recent.map((p) => (
              <li key={p}>
                <button type="button" onClick={() => open(p)}>
                  {displayPath(p)}
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
      <h3 className="modal__section">Workspace {hostInfo()?.workspace && <code>{hostInfo()!.workspace}</code>}</h3>
      {error && <div className="field__error">{error}</div>}
      {!files && !error && <div className="note">Loading…</div>}
      {files && files.length === 0 && (
        <div className="note">No .weir.json job or .sql script in the workspace yet.</div>
      )}
      <ul className="filelist" data-testid="file-list">
        {files?.map((f) => (
          <li key={f.path}>
            <button type="button" data-testid={`file-${displayPath(f.path)}`} onClick={() => open(f.path)}>
              {displayPath(f.path)}
              {/\.sql$/i.test(f.name) && <span className="filelist__kind">Flink SQL: import</span>}
              <span className="filelist__time">{new Date(f.modified).toLocaleString()}</span>
            </button>
          </li>
        ))}
      </ul>
    </Modal>
  );
}

function suggestName(): string {
  const s = docStore.getState();
  if (s.path) return displayPath(s.path) ?? s.path;
  const slug =
    (s.job.name || 'pipeline')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'pipeline';
  return `${slug}.weir.json`;
}

function SaveAsDialog() {
  const [name, setName] = useState(suggestName);
  const submit = async () => {
    const p = name.trim();
    if (!p) return;
    const path = JOB_FILE.test(p) ? p : `${p}.weir.json`;
    if (await saveTo(path)) openDialog(null);
  };
  return (
    <Modal title="Save pipeline as" testId="save-as-dialog">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <label className="field__label" htmlFor="save-as-path">
          File in the workspace
        </label>
        <input
          id="save-as-path"
          className="input"
          autoFocus
          value={name}
          data-testid="save-as-path"
          onChange={(e) => setName(e.target.value)}
          spellCheck={false}
        />
        <div className="modal__actions">
          <button type="button" className="btn" onClick={() => openDialog(null)}>
            Cancel
          </button>
          <button type="submit" className="btn btn--primary" data-testid="save-as-confirm">
            Save
          </button>
        </div>
      </form>
    </Modal>
  );
}

export function DocumentDialogs() {
  const dialog = useUi((s) => s.dialog);
  if (dialog === 'open') return <OpenDialog />;
  if (dialog === 'save-as') return <SaveAsDialog />;
  return null;
}
