/** Export the open job as weir.job/v1 JSON or as a Flink SQL script (through host.exportJob). */
import { useEffect, useState } from 'react';
import type { ExportResult } from '../../../engine/host/common/api.ts';
import { host } from '../host.ts';
import { docStore } from '../state.ts';
import { useUi, notify } from '../ui/uiStore.ts';
import { Modal } from './Modal.tsx';

type Format = 'json' | 'flink-sql';

function download(name: string, text: string): void {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

export function ExportDialog() {
  const open = useUi((s) => s.dialog === 'export');
  const [format, setFormat] = useState<Format>('flink-sql');
  const [result, setResult] = useState<ExportResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!open) return;
    setResult(null);
    setError(null);
    // The path lets the exporter sample the job's data files (relative to it) for column types.
    const { job, path } = docStore.getState();
    host()
      .exportJob({ job, format, ...(path ? { path } : {}) })
      .then(setResult, (e) => setError(String(e?.message ?? e)));
  }, [open, format]);
  if (!open) return null;
  const name = (docStore.getState().job.name || 'pipeline').replace(/[^\w.-]+/g, '-');
  return (
    <Modal title="Export" testId="export-dialog" wide>
      <div className="export__formats">
        {(['flink-sql', 'json'] as const).map((f) => (
          <label key={f} className="check">
            <input
              type="radio"
              name="export-format"
              checked={format === f}
              onChange={() => setFormat(f)}
              data-testid={`export-${f}`}
            />
            <span>{f === 'json' ? 'weir.job/v1 JSON (runs with `weir run`)' : 'Flink SQL script'}</span>
          </label>
        ))}
      </div>
      {error && (
        <div className="field__error" role="alert">
          {error}
        </div>
      )}
      {result && result.warnings.length > 0 && (
        <ul className="inspector__problems">
          {result.warnings.map((w, i) => (
            <li key={i} className="is-warning">
              {w.path}: {w.message}
            </li>
          ))}
        </ul>
      )}
      <textarea
        className="export__text"
        readOnly
        value={result?.text ?? (error ? '' : 'Exporting…')}
        data-testid="export-text"
        spellCheck={false}
      />
      <div className="modal__actions">
        <button
          type="button"
          className="btn"
          disabled={!result}
          onClick={() => {
            void navigator.clipboard?.writeText(result!.text).then(
              () => notify('Copied'),
              () => notify('Copy failed: select the text and copy it', 'error'),
            );
          }}
        >
          Copy
        </button>
        <button
          type="button"
          className="btn btn--primary"
          disabled={!result}
          onClick={() => download(`${name}.${format === 'json' ? 'weir.json' : 'sql'}`, result!.text)}
        >
          Download
        </button>
      </div>
    </Modal>
  );
}
