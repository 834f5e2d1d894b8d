/** One checkpoint in detail: per operator (worst subtask) and per subtask the sync, async and
 * alignment durations, start delay and sizes, as Flink's checkpoint details show them. */
import { Fragment, useState } from 'react';
import type { CheckpointStats } from '../../../engine/contracts/checkpoint.ts';
import { useDoc } from '../state.ts';
import { operatorDetails } from './checkpointSummary.ts';
import { shownStatus } from '../stores/checkpointStatus.ts';
import { bytes, duration, timeOfDay } from './format.ts';
import { openCheckpoint } from '../stores/liveStore.ts';

export function CheckpointDetail({ stats }: { stats: CheckpointStats }) {
  const nodes = useDoc((s) => s.job.nodes);
  const order = nodes.map((n) => n.id);
  const names = new Map(nodes.map((n) => [n.id, n.name || n.id]));
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const ops = operatorDetails(stats, order);
  const st = shownStatus(stats);
  const toggle = (id: string) =>
    setExpanded((s) => {
      const n = new Set(s);
      if (n.has(id)) n.delete(id);
      else n.add(id);
      return n;
    });
  return (
    <div className="cp-detail" data-testid="cp-detail" data-id={stats.id}>
      <div className="cp-detail__head">
        <button
          type="button"
          className="btn btn--ghost"
          data-testid="cp-detail-close"
          onClick={() => openCheckpoint(null)}
        >
          ← history
        </button>
        <b>
          {stats.kind === 'savepoint' ? 'Savepoint' : 'Checkpoint'} #{stats.id}
        </b>
        <span className={`cp-status cp-status--${st}`} data-testid="cp-detail-status">
          {st.replace('_', ' ')}
        </span>
        <span>triggered {timeOfDay(stats.triggerTime)}</span>
        <span>end to end {duration(stats.duration)}</span>
        <span>
          acknowledged {stats.acknowledged}/{stats.total}
        </span>
        <span title="Bytes this checkpoint wrote">checkpointed {bytes(stats.checkpointedBytes)}</span>
        <span title="Total state the checkpoint refers to, including files shared with earlier checkpoints">
          full {bytes(stats.fullBytes)}
        </span>
        {stats.location && (
          <code className="cp-detail__loc" title={stats.location}>
            {stats.location}
          </code>
        )}
      </div>
      {stats.failureReason && st === 'failed' && (
        <div className="cp-detail__failure" data-testid="cp-detail-failure">
          Failed: {stats.failureReason}
        </div>
      )}
      {st === 'discarded' && (
        <div className="cp-detail__note" data-testid="cp-detail-discarded">
          Discarded: the job ended before this checkpoint completed ({stats.failureReason}). Nothing was lost: the
          output was committed at the end of the run.
        </div>
      )}
      <table className="live-table">
        <thead>
          <tr>
            <th>operator / subtask</th>
            <th>start delay</th>
            <th>alignment</th>
            <th>sync</th>
            <th>async</th>
            <th>checkpointed</th>
            <th>full</th>
          </tr>
        </thead>
        <tbody>
          {ops.length === 0 && (
            <tr>
              <td colSpan={7} className="live-table__empty">
                No subtask has acknowledged yet.
              </td>
            </tr>
          )}
          {ops.map((o) => (
            <Fragment key={o.operatorId}>
              <tr
                className="live-table__group"
                data-testid={`cp-op-${o.operatorId}`}
                onClick={() => toggle(o.operatorId)}
              >
                <td>
                  {expanded.has(o.operatorId) ? '▾' : '▸'} {names.get(o.operatorId) ?? o.operatorId}{' '}
                  <span className="dim">
                    ({o.subtasks.length} subtask{o.subtasks.length === 1 ? '' : 's'}, max)
                  </span>
                </td>
                <td>{duration(o.max.startDelay)}</td>
                <td>{duration(o.max.alignmentDuration)}</td>
                <td>{duration(o.max.syncDuration)}</td>
                <td>{duration(o.max.asyncDuration)}</td>
                <td>{bytes(o.checkpointedBytes)}</td>
                <td>{bytes(o.fullBytes)}</td>
              </tr>
              {expanded.has(o.operatorId) &&
                o.subtasks.map((s) => (
                  <tr key={s.subtask} className="live-table__sub" data-testid={`cp-sub-${o.operatorId}-${s.subtask}`}>
                    <td>subtask {s.subtask}</td>
                    <td>{duration(s.startDelay)}</td>
                    <td>{duration(s.alignmentDuration)}</td>
                    <td>{duration(s.syncDuration)}</td>
                    <td>{duration(s.asyncDuration)}</td>
                    <td>{bytes(s.checkpointedBytes)}</td>
                    <td>
                      {bytes(s.fullBytes)}
                      {s.limitBytes !== undefined && (
                        <b
                          className="cp-refused"
                          data-testid={`cp-refused-${o.operatorId}-${s.subtask}`}
                          title="This snapshot was refused: the memory backend keeps at most memoryStateLimit per operator subtask"
                        >
                          {' '}
                          over the {bytes(s.limitBytes)} limit
                        </b>
                      )}
                    </td>
                  </tr>
                ))}
            </Fragment>
          ))}
        </tbody>
      </table>
    </div>
  );
}
