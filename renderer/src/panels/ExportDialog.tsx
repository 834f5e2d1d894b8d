/**
 * Export the open job as weir.job/v1 JSON or as a Flink SQL script (through host.exportJob), for
 * the Flink version chosen and, optionally, with relative paths under a URI prefix (as
 * `weir export --flink-version V --path-prefix URI`).
 */
import { useEffect, useState } from 'react';
import type { ExportResult } from '../../../engine/host/common/api.ts';
import { host } from '../host.ts';
import { docStore } from '../state.ts';
import { useUi, notify } from '../ui/uiStore.ts';
import { Modal } from './Modal.tsx';
import { requestSchemas } from '../../../engine/host/common/schemas.ts';

/** The versions the host's exportJob accepts, oldest first; the newest is `weir export`'s default. */
const FLINK_VERSIONS = requestSchemas.exportJob.shape.flinkVersion.unwrap().options;
type FlinkVersion = (typeof FLINK_VERSIONS)[number];
const DEFAULT_FLINK_VERSION: FlinkVersion = FLINK_VERSIONS[FLINK_VERSIONS.length - 1];

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
  const [flinkVersion, setFlinkVersion] = useState<FlinkVersion>(DEFAULT_FLINK_VERSION);
  const [pathPrefix, setPathPrefix] = useState('');
  useEffect(() => {
    if (!open) return;
    let live = true;
    setResult(null);
    setError(null);
    // The path lets the exporter sample the job's data files (relative to it) for column types.
    const { job, path } = docStore.getState();
    const prefix = pathPrefix.trim();
    host()
      .exportJob({
        job,
        format,
        ...(path ? { path } : {}),
        ...(format === 'flink-sql' ? { flinkVersion, ...(prefix ? { pathPrefix: prefix } : {}) } : {}),
      })
      .then(
        (r) => live && setResult(r),
        (e) =>
          live && setError(String(e?.message ?? e).replace(/^(exportJob: )?params\.pathPrefix: /, 'Path prefix: ')),
      );
    return () => {
      live = false;
    };
  }, [open, format, flinkVersion, pathPrefix]);
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
      {format === 'flink-sql' && (
        <div className="export__options">
          <label className="field__label" htmlFor="export-flink-version">
            Flink version
          </label>
          <select
            id="export-flink-version"
            className="input"
            value={flinkVersion}
            data-testid="export-flink-version"
            onChange={(e) => setFlinkVersion(e.target.value as FlinkVersion)}
          >
            {FLINK_VERSIONS.map((v) => (
              <option key={v} value={v}>
                {v}
              </option>
            ))}
          </select>
          <label className="field__label" htmlFor="export-path-prefix">
            Path prefix
          </label>
          <input
            id="export-path-prefix"
            className="input"
            value={pathPrefix}
            placeholder="none: file:/// URIs under the job's folder (e.g. s3://bucket/weir/)"
            data-testid="export-path-prefix"
            spellCheck={false}
            onChange={(e) => setPathPrefix(e.target.value)}
          />
        </div>
      )}
      {error && (
        <div className="field__error" role="alert" data-testid="export-error">
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
