/** Run / Stop and the job status pill (`job-status` text is exactly the JobStatus). */
import { useRun, ACTIVE } from '../stores/runStore.ts';
import { run, stop } from '../run/runActions.ts';
import { useDoc } from '../state.ts';
import { Uptime } from '../live/Uptime.tsx';

export function RunControls() {
  const status = useRun((s) => s.status);
  const cause = useRun((s) => s.cause);
  const restarts = useRun((s) => s.restarts);
  const errors = useDoc((s) => s.problems.all.filter((p) => p.severity !== 'warning').length);
  const active = ACTIVE.has(status);
  return (
    <div className="runbar">
      <span
        className={`status status--${status}`}
        data-testid="job-status"
        data-status={status}
        title={cause ?? undefined}
      >
        {status}
      </span>
      <Uptime />
      {restarts > 0 && (
        <span className="runbar__restarts" data-testid="restarts" data-count={restarts} title="Restarts">
          ↻ {restarts}
        </span>
      )}
      {active ? (
        <button
          type="button"
          className="btn btn--stop"
          data-testid="stop"
          onClick={() => {
            void stop();
          }}
        >
          ■ Stop
        </button>
      ) : (
        <button
          type="button"
          className="btn btn--run"
          data-testid="run"
          title={errors ? `${errors} problem(s) to fix first (Ctrl+Enter)` : 'Run (Ctrl+Enter)'}
          onClick={() => {
            void run();
          }}
        >
          ▶ Run
        </button>
      )}
    </div>
  );
}
