/**
 * Run controls next to Run/Stop: while running, Stop with savepoint, Savepoint now and Kill task
 * process; while stopped, Resume from latest and Restore from a chosen checkpoint. The backend
 * picker chooses the state backend for the next run (default: the job's own setting).
 */
import { useState } from 'react';
import type { StateBackendKind } from '../../../engine/graph/types.ts';
import { ACTIVE, useRun } from '../stores/runStore.ts';
import { useDoc } from '../state.ts';
import { liveStore, useLive } from '../stores/liveStore.ts';
import { killTaskProcess, resumeLatest, savepointNow, stopWithSavepoint } from './liveActions.ts';
import { RestoreMenu } from './RestoreMenu.tsx';

const BACKENDS: StateBackendKind[] = ['memory', 'fs', 'rocksdb'];

export function LiveControls() {
  const status = useRun((s) => s.status);
  const active = ACTIVE.has(status);
  const running = status === 'running';
  const jobBackend = useDoc((s) => s.job.settings?.stateBackend ?? 'memory');
  const backend = useLive((s) => s.backend);
  const inUse = useLive((s) => (active ? (s.config?.settings.stateBackend ?? null) : null));
  const [restoring, setRestoring] = useState(false);
  return (
    <div className="livectl">
      {active ? (
        <>
          <span
            className={`backend backend--${inUse}`}
            data-testid="backend-in-use"
            data-backend={inUse ?? ''}
            title="State backend of this run"
          >
            {inUse}
          </span>
          <button
            type="button"
            className="btn"
            data-testid="ctl-stop-savepoint"
            disabled={!running}
            title="Take a savepoint, then stop"
            onClick={() => {
              void stopWithSavepoint();
            }}
          >
            ■ Stop with savepoint
          </button>
          <button
            type="button"
            className="btn"
            data-testid="ctl-savepoint"
            disabled={!running}
            title="Take a savepoint and keep running"
            onClick={() => {
              void savepointNow();
            }}
          >
            ⚑ Savepoint
          </button>
          <button
            type="button"
            className="btn btn--danger"
            data-testid="ctl-kill"
            disabled={!running}
            title="Fault injection: SIGKILL the task process; the job restarts from its latest checkpoint"
            onClick={() => {
              void killTaskProcess();
            }}
          >
            ☠ Kill task process
          </button>
        </>
      ) : (
        <>
          <select
            className="livectl__backend"
            data-testid="live-backend"
            value={backend ?? ''}
            title="State backend for the next run"
            onChange={(e) => liveStore.setState({ backend: (e.target.value || null) as StateBackendKind | null })}
          >
            <option value="">backend: job's ({jobBackend})</option>
            {BACKENDS.map((b) => (
              <option key={b} value={b}>
                backend: {b}
              </option>
            ))}
          </select>
          <button
            type="button"
            className="btn"
            data-testid="ctl-resume"
            title="Run from the latest retained checkpoint"
            onClick={() => {
              void resumeLatest();
            }}
          >
            ⟲ Resume latest
          </button>
          <span className="livectl__restore">
            <button
              type="button"
              className="btn"
              data-testid="ctl-restore"
              title="Run from a chosen checkpoint or savepoint"
              onClick={() => setRestoring((r) => !r)}
            >
              Restore…
            </button>
            {restoring && <RestoreMenu onClose={() => setRestoring(false)} />}
          </span>
        </>
      )}
    </div>
  );
}
