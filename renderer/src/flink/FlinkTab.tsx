/**
 * The live panel's Flink tab: what Flink reports of the latest Run on Flink (job id, state, records
 * in/out per vertex, completed checkpoints, failures), the Flink web UI for a gateway's cluster,
 * and Stop (with a savepoint, on a gateway).
 */
import type { FlinkRunSnapshot } from '../../../engine/host/common/api.ts';
import { openFlinkDialog, stopFlink } from './flinkActions.ts';
import { useFlink } from './flinkStore.ts';
import './flink.css';

const count = new Intl.NumberFormat('en-US');

function Controls({ run }: { run: FlinkRunSnapshot }) {
  if (run.phase === 'ended')
    return (
      <button type="button" className="btn" data-testid="flink-run-again" onClick={() => void openFlinkDialog()}>
        ▶ Run on Flink…
      </button>
    );
  return (
    <>
      {run.target === 'gateway' && (
        <button
          type="button"
          className="btn"
          data-testid="flink-stop-savepoint"
          disabled={run.jobId === null}
          title="STOP JOB … WITH SAVEPOINT (into flink-savepoints/ beside the job)"
          onClick={() => void stopFlink(true)}
        >
          ■ Stop with savepoint
        </button>
      )}
      <button type="button" className="btn btn--stop" data-testid="flink-stop" onClick={() => void stopFlink(false)}>
        ■ Stop
      </button>
    </>
  );
}

function Summary({ run }: { run: FlinkRunSnapshot }) {
  const state = run.state ?? (run.phase === 'starting' ? 'STARTING' : 'UNKNOWN');
  return (
    <div className="flinktab__summary">
      <span
        className={`status status--${state.toLowerCase()}`}
        data-testid="flink-state"
        data-state={state}
        data-phase={run.phase}
      >
        {state}
      </span>
      <dl className="flinktab__facts">
        <div>
          <dt>Job id</dt>
          <dd className="flinktab__mono" data-testid="flink-job-id">
            {run.jobId ?? '—'}
          </dd>
        </div>
        <div>
          <dt>On</dt>
          <dd data-testid="flink-target">
            Flink {run.flinkVersion} · {run.target === 'local' ? 'local MiniCluster' : 'SQL Gateway'}
          </dd>
        </div>
        <div>
          <dt>Checkpoints</dt>
          <dd data-testid="flink-checkpoints">{run.checkpoints}</dd>
        </div>
        {run.webUi && (
          <div>
            <dt>Web UI</dt>
            <dd>
              <a href={run.webUi} target="_blank" rel="noreferrer" data-testid="flink-web-ui">
                Open in Flink ↗
              </a>
            </dd>
          </div>
        )}
      </dl>
      <div className="flinktab__controls">
        <Controls run={run} />
      </div>
    </div>
  );
}

function Vertices({ run }: { run: FlinkRunSnapshot }) {
  if (run.vertices.length === 0)
    return (
      <div className="flinktab__empty">
        {run.phase === 'starting' ? 'Starting Flink and submitting the job…' : 'Flink has not reported vertices yet.'}
      </div>
    );
  return (
    <table className="flinktab__table" data-testid="flink-vertices">
      <thead>
        <tr>
          <th>Vertex</th>
          <th>Parallelism</th>
          <th>Status</th>
          <th className="num">Records in</th>
          <th className="num">Records out</th>
        </tr>
      </thead>
      <tbody>
        {run.vertices.map((v) => (
          <tr key={v.id} data-testid="flink-vertex" data-records-in={v.recordsIn} data-records-out={v.recordsOut}>
            <td className="flinktab__vname" title={v.name}>
              {v.name}
            </td>
            <td>{v.parallelism}</td>
            <td>
              <span className={`flinktab__vstatus flinktab__vstatus--${v.status.toLowerCase()}`}>{v.status}</span>
            </td>
            <td className="num">{count.format(v.recordsIn)}</td>
            <td className="num">{count.format(v.recordsOut)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function FlinkTab() {
  const run = useFlink((s) => s.run);
  const starting = useFlink((s) => s.starting);
  const refusal = useFlink((s) => s.refusal);
  if (refusal)
    return (
      <div className="flinktab flinktab--idle">
        <div className="flinktab__refusal" role="alert" data-testid="flink-refusal">
          {refusal}
        </div>
        <button type="button" className="btn" onClick={() => void openFlinkDialog()}>
          ▶ Run on Flink…
        </button>
      </div>
    );
  if (!run)
    return (
      <div className="flinktab flinktab--idle" data-testid="flink-idle">
        <div className="flinktab__empty">
          {starting
            ? 'Starting Flink and submitting the job…'
            : 'Nothing has run on Flink yet: Run on Flink exports this job to Flink SQL and runs it on Apache Flink.'}
        </div>
        {!starting && (
          <button type="button" className="btn" onClick={() => void openFlinkDialog()}>
            ▶ Run on Flink…
          </button>
        )}
      </div>
    );
  return (
    <div className="flinktab" data-testid="flink-tab">
      <Summary run={run} />
      {run.error && (
        <div className="flinktab__refusal" role="alert" data-testid="flink-error">
          {run.error}
        </div>
      )}
      {run.savepoint && (
        <div className="flinktab__note" data-testid="flink-savepoint">
          Savepoint: <span className="flinktab__mono">{run.savepoint}</span>
        </div>
      )}
      <Vertices run={run} />
      {run.failures.length > 0 && (
        <ul className="flinktab__failures" data-testid="flink-failures">
          {run.failures.map((f, i) => (
            <li key={i}>{f}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
