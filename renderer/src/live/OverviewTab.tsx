/**
 * Overview: checkpoint counts and latest entries, restarts and the failure cause in words, the
 * configuration in effect, pending sink transactions (output waiting for the next commit) and the
 * sources' partitions with their offsets and lag.
 */
import { useMemo } from 'react';
import type { CheckpointStats } from '../../../engine/contracts/checkpoint.ts';
import { useRun } from '../stores/runStore.ts';
import { useMetrics } from '../stores/metricsStore.ts';
import { useDoc } from '../state.ts';
import { useLive, openCheckpoint } from '../stores/liveStore.ts';
import { summarizeCheckpoints } from './checkpointSummary.ts';
import { SourceSplits } from './SourceSplits.tsx';
import { SinkLocations } from './SinkLocations.tsx';
import { liveIndex } from '../stores/nodeLive.ts';
import { bytes, count, duration, timeOfDay } from './format.ts';
import { isNodeType, nodeDefinition } from '../../../engine/graph/node-types.ts';

function Latest({ label, c, testId }: { label: string; c: CheckpointStats | null; testId: string }) {
  return (
    <div className="ov-latest" data-testid={testId}>
      <span className="ov-latest__label">{label}</span>
      {c ? (
        <button type="button" className="linkish" onClick={() => openCheckpoint(c.id)}>
          #{c.id} at {timeOfDay(c.triggerTime)} · {duration(c.duration)} · {bytes(c.checkpointedBytes)}
          {c.failureReason ? <span className="ov-latest__reason"> — {c.failureReason}</span> : null}
        </button>
      ) : (
        <span className="dim">none</span>
      )}
    </div>
  );
}

/** What a sink committing at checkpoints counts its pending output in; undefined for other nodes. */
const pendingUnit = (n: { type: string }) =>
  isNodeType(n.type) ? nodeDefinition(n.type).transactional?.pendingUnit : undefined;

function PendingSinks() {
  const byNode = useMetrics((s) => s.byNode);
  const nodes = useDoc((s) => s.job.nodes);
  const idx = useMetrics(liveIndex);
  const sinks = nodes.filter((n) => pendingUnit(n) !== undefined);
  if (!sinks.length) return null;
  return (
    <div className="ov-box" data-testid="pending-sinks">
      <h4>
        Pending sink transactions <span className="dim">(written, committed at the next completed checkpoint)</span>
      </h4>
      {sinks.map((n) => {
        const live = idx.nodes.get(n.id);
        const subs = byNode.get(n.id) ?? [];
        return (
          <div
            key={n.id}
            className="ov-pending"
            data-testid={`pending-${n.id}`}
            data-records={live?.pendingRecords ?? ''}
          >
            <b>{n.name || n.id}</b>:{' '}
            {live?.pendingRecords == null
              ? 'not running'
              : `${count(live.pendingRecords)} records in ${count(live.pendingFiles ?? 0)} ${pendingUnit(n)} waiting`}
            {subs.length > 1 && (
              <span className="dim">
                {' '}
                ({subs.map((m) => `#${m.subtask}: ${count(m.pendingRecords ?? 0)}`).join(', ')})
              </span>
            )}
          </div>
        );
      })}
    </div>
  );
}

/** A savepoint or checkpoint folder by its last segment (the full path is in the tooltip). */
function shortLocation(loc: string): string {
  const parts = loc.split(/[\\/]/).filter(Boolean);
  return parts.length > 1 ? `from …/${parts.slice(-2).join('/')}` : loc;
}

export function OverviewTab() {
  const list = useLive((s) => s.checkpoints);
  const restores = useLive((s) => s.restores);
  const config = useLive((s) => s.config);
  const restarts = useRun((s) => s.restarts);
  const status = useRun((s) => s.status);
  const cause = useRun((s) => s.cause);
  const sum = useMemo(() => summarizeCheckpoints(list, restores), [list, restores]);
  const st = config?.settings;
  const cp = st?.checkpointing;
  const lr = sum.latestRestore;
  const lastRestart = [...restores].reverse().find((r) => r.cause !== null) ?? null;
  return (
    <div className="ov">
      <div className="ov-counts">
        {(
          [
            ['triggered', sum.counts.triggered],
            ['in progress', sum.counts.inProgress],
            ['completed', sum.counts.completed],
            ['failed', sum.counts.failed],
            ['restored', sum.counts.restored],
          ] as const
        ).map(([k, v]) => (
          <div
            key={k}
            className={`ov-count ov-count--${k.replace(' ', '-')}`}
            data-testid={`cp-count-${k.replace(' ', '-')}`}
            data-count={v}
          >
            <span className="ov-count__n">{v}</span>
            <span className="ov-count__k">{k}</span>
          </div>
        ))}
        <div className="ov-count ov-count--restarts" data-testid="restart-count" data-count={restarts}>
          <span className="ov-count__n">{restarts}</span>
          <span className="ov-count__k">restarts</span>
        </div>
      </div>
      {(status === 'failed' || (status === 'restarting' && cause)) && (
        <div className="ov-cause" data-testid="live-cause">
          {status === 'failed' ? 'The job failed: ' : 'Restarting after: '}
          {cause ?? 'no cause reported'}
        </div>
      )}
      {status !== 'failed' && status !== 'restarting' && lastRestart && (
        <div className="ov-recovered" data-testid="live-recovered">
          Recovered from “{lastRestart.cause}”: rewound to{' '}
          {lastRestart.id === null ? 'the start (no checkpoint had completed)' : `checkpoint #${lastRestart.id}`},
          sources re-read from its positions, uncommitted output discarded, and continued.
        </div>
      )}
      <div className="ov-cols">
        <div className="ov-box">
          <h4>Latest</h4>
          <Latest label="completed" c={sum.latestCompleted} testId="latest-completed" />
          <Latest label="failed" c={sum.latestFailed} testId="latest-failed" />
          <Latest label="savepoint" c={sum.latestSavepoint} testId="latest-savepoint" />
          <div className="ov-latest" data-testid="latest-restore">
            <span className="ov-latest__label">restore</span>
            {lr ? (
              <span title={lr.location}>
                {lr.id >= 0 ? `#${lr.id} · ` : ''}
                {shortLocation(lr.location)} at {timeOfDay(lr.restoreTime)}
              </span>
            ) : (
              <span className="dim">none</span>
            )}
          </div>
        </div>
        <div className="ov-box" data-testid="live-config">
          <h4>Configuration in effect</h4>
          {st && cp ? (
            <dl className="ov-config">
              <dt>state backend</dt>
              <dd data-testid="config-backend">
                {st.stateBackend}
                {config.backendSource === 'override' ? ' (chosen for this run)' : ''}
              </dd>
              <dt>interval</dt>
              <dd>{cp.interval === null ? 'off (sinks commit at end of input)' : duration(cp.interval)}</dd>
              <dt>mode</dt>
              <dd>{cp.mode}</dd>
              <dt>incremental</dt>
              <dd>{st.stateBackend === 'rocksdb' ? (cp.incremental ? 'yes' : 'no (full)') : 'n/a (full snapshots)'}</dd>
              <dt>timeout / min pause</dt>
              <dd>
                {duration(cp.timeout)} / {duration(cp.minPause)}
              </dd>
              <dt>retained / tolerable failures</dt>
              <dd>
                {cp.retained} / {cp.tolerableFailures}
              </dd>
              {st.stateBackend === 'memory' ? (
                <>
                  <dt>memory state limit</dt>
                  <dd>{bytes(st.memoryStateLimit)} per snapshot</dd>
                </>
              ) : (
                <>
                  <dt>checkpoint dir</dt>
                  <dd>
                    <code>{cp.dir}</code>
                  </dd>
                </>
              )}
              <dt>restart</dt>
              <dd>
                {st.restart.attempts} attempts, {duration(st.restart.delay)} apart
              </dd>
              {config.restoreFrom && (
                <>
                  <dt>started from</dt>
                  <dd>
                    <code>{config.restoreFrom}</code>
                  </dd>
                </>
              )}
            </dl>
          ) : (
            <span className="dim">Not run yet.</span>
          )}
        </div>
        <PendingSinks />
        <SourceSplits />
        <SinkLocations />
      </div>
    </div>
  );
}
