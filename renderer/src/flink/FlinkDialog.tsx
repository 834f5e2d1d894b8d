/**
 * Run on Flink: where (Weir's runner on a local MiniCluster, or a Flink SQL Gateway whose address
 * the host keeps), which Flink (1.20 or 2.x) and the parallelism. The choices are remembered.
 */
import { useEffect, useState } from 'react';
import type { FlinkSettings } from '../../../engine/host/common/api.ts';
import { FLINK_VERSIONS, gatewayUrl } from '../../../engine/host/common/flink-schemas.ts';
import { closeFlinkDialog, runOnFlink } from './flinkActions.ts';
import { useFlink } from './flinkStore.ts';
import './flink.css';

const TARGETS: Array<[FlinkSettings['target'], string, string]> = [
  ['local', 'Local MiniCluster', "Weir's Flink runner on this machine (Java 17+)"],
  ['gateway', 'Flink SQL Gateway', "a running cluster, over the gateway's REST API"],
];

function urlProblem(s: FlinkSettings): string | null {
  if (s.target !== 'gateway') return null;
  if (s.gatewayUrl.trim() === '') return 'Name the SQL Gateway, e.g. http://localhost:8083';
  return gatewayUrl.safeParse(s.gatewayUrl.trim()).success ? null : 'Not an http(s) URL such as http://localhost:8083';
}

export function FlinkDialog() {
  const open = useFlink((s) => s.dialogOpen);
  const saved = useFlink((s) => s.settings);
  const [draft, setDraft] = useState<FlinkSettings>(saved);
  useEffect(() => {
    if (open) setDraft(saved);
  }, [open, saved]);
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') closeFlinkDialog();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);
  if (!open) return null;
  const problem = urlProblem(draft);
  const set = (patch: Partial<FlinkSettings>) => setDraft((d) => ({ ...d, ...patch }));
  const submit = () => {
    if (!problem) void runOnFlink({ ...draft, gatewayUrl: draft.gatewayUrl.trim() });
  };
  return (
    <div
      className="modal-backdrop"
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) closeFlinkDialog();
      }}
    >
      <form
        className="modal flinkdlg"
        role="dialog"
        aria-label="Run on Flink"
        data-testid="flink-dialog"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <div className="modal__head">
          <h2>Run on Apache Flink</h2>
          <button type="button" className="btn btn--ghost" aria-label="Close" onClick={closeFlinkDialog}>
            ✕
          </button>
        </div>
        <div className="modal__body">
          <p className="flinkdlg__intro">
            The job is exported to Flink SQL (as Export does) and runs on a real Flink; its sinks write where the script
            says.
          </p>
          <div className="modal__section">Where</div>
          {TARGETS.map(([target, label, hint]) => (
            <label key={target} className="check flinkdlg__target">
              <input
                type="radio"
                name="flink-target"
                data-testid={`flink-target-${target}`}
                checked={draft.target === target}
                onChange={() => set({ target })}
              />
              <span>
                {label} <small>{hint}</small>
              </span>
            </label>
          ))}
          {draft.target === 'gateway' && (
            <div className={`field${problem ? ' field--error' : ''}`}>
              <label className="field__label" htmlFor="flink-gateway-url">
                Gateway URL
              </label>
              <input
                id="flink-gateway-url"
                className="input"
                data-testid="flink-gateway-url"
                placeholder="http://localhost:8083"
                value={draft.gatewayUrl}
                onChange={(e) => set({ gatewayUrl: e.target.value })}
              />
              {problem && <div className="field__error">{problem}</div>}
            </div>
          )}
          <div className="flinkdlg__row">
            <div className="field">
              <label className="field__label" htmlFor="flink-version">
                Flink version
              </label>
              <select
                id="flink-version"
                className="select"
                data-testid="flink-version"
                value={draft.flinkVersion}
                onChange={(e) => set({ flinkVersion: e.target.value as FlinkSettings['flinkVersion'] })}
              >
                {FLINK_VERSIONS.map((v) => (
                  <option key={v} value={v}>
                    {v === '1.20' ? 'Flink 1.20 (LTS)' : 'Flink 2.x'}
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label className="field__label" htmlFor="flink-parallelism">
                Parallelism
              </label>
              <input
                id="flink-parallelism"
                className="input input--num"
                type="number"
                min={1}
                max={64}
                data-testid="flink-parallelism"
                value={draft.parallelism}
                onChange={(e) =>
                  set({ parallelism: Math.min(64, Math.max(1, Math.round(Number(e.target.value) || 1))) })
                }
              />
            </div>
          </div>
          <div className="modal__actions">
            <button type="button" className="btn" onClick={closeFlinkDialog}>
              Cancel
            </button>
            <button type="submit" className="btn btn--primary" data-testid="flink-run" disabled={problem !== null}>
              ▶ Run on Flink
            </button>
          </div>
        </div>
      </form>
    </div>
  );
}
