/**
 * The live line under a canvas node while a job runs: watermark, lag behind the newest event
 * time, idle inputs, late records, keyed-state size, pending sink records. Subscribes to this node's figures only;
 * the node view around it does not re-render on a metrics tick.
 */
import { memo } from 'react';
import { useNodeBadge } from './useNodeLive.ts';
import { bytes, count, duration, watermark } from './format.ts';

function NodeLiveBadgeImpl({ nodeId, hasInput, hasOutput }: { nodeId: string; hasInput: boolean; hasOutput: boolean }) {
  const b = useNodeBadge(nodeId);
  if (!b.active) return null;
  return (
    <div
      className="wnode__live"
      data-testid={`live-${nodeId}`}
      data-watermark={b.watermark ?? ''}
      data-idle={b.idleInputs > 0 || b.idleOutputs > 0 ? 'true' : 'false'}
    >
      <span
        className="wnode__io"
        data-testid={`io-${nodeId}`}
        title="Records in / out since the run started, and the current rate"
      >
        {hasInput && (
          <>
            <span className="wnode__k">in</span> {b.recordsIn}
          </>
        )}
        {hasInput && hasOutput && ' → '}
        {hasOutput && (
          <>
            <span className="wnode__k">out</span> {b.recordsOut}
          </>
        )}{' '}
        <span className="wnode__k">·</span> {b.rate}
      </span>
      <span className="wnode__wm" title="Watermark (event time, UTC): the slowest subtask's">
        <span className="wnode__k">wm</span> <span data-testid={`wm-${nodeId}`}>{watermark(b.watermark)}</span>
      </span>
      {b.lag !== null && (
        <span className="wnode__lag" title="Lag: newest event time seen by the sources minus this watermark">
          lag {duration(b.lag)}
        </span>
      )}
      {b.idleInputs > 0 && (
        <span
          className="wnode__idle"
          data-testid={`idle-${nodeId}`}
          title="Idle input channels do not hold the watermark back"
        >
          idle input ×{b.idleInputs}
        </span>
      )}
      {b.idleOutputs > 0 && b.idleInputs === 0 && (
        <span
          className="wnode__idle"
          data-testid={`idle-${nodeId}`}
          title="No records for longer than its idle timeout: downstream does not wait for its watermark"
        >
          idle
        </span>
      )}
      {b.busy !== null && (b.busy > 0 || b.bottleneck) && (
        <span
          className={b.bottleneck ? 'wnode__busy wnode__busy--bottleneck' : 'wnode__busy'}
          data-testid={`busy-${nodeId}`}
          data-bottleneck={b.bottleneck ? 'true' : 'false'}
          title={
            b.bottleneck
              ? 'The bottleneck: its sender is back-pressured and it is not (with no back-pressure, the busiest operator). Busy: share of each second spent in its own code (its busiest subtask)'
              : 'Share of each second spent in its own code (its busiest subtask)'
          }
        >
          {b.bottleneck ? 'bottleneck · ' : ''}busy {b.busy}%
        </span>
      )}
      {b.late > 0 && (
        <span className="wnode__late" title="Late records dropped (or sent to the late port)">
          late {count(b.late)}
        </span>
      )}
      {b.stateBytes > 0 && (
        <span
          className="wnode__state"
          data-testid={`state-${nodeId}`}
          title="Keyed state of this operator, all subtasks (heap estimate or RocksDB live data)"
        >
          <span className="wnode__k">state</span> {bytes(b.stateBytes)}
        </span>
      )}
      {b.pending !== null && b.pending > 0 && (
        <span
          className="wnode__pending"
          title="Records written but not yet committed (they commit with the next completed checkpoint)"
        >
          <span className="wnode__k">uncommitted</span> {count(b.pending)}
        </span>
      )}
    </div>
  );
}

export const NodeLiveBadge = memo(NodeLiveBadgeImpl);
// Named for React DevTools (and the e2e render counter): the minified build keeps no function names.
NodeLiveBadge.displayName = 'NodeLiveBadge';
