/**
 * A canvas edge that shows what flows on it while a job runs: stroke width by records/s, a rate
 * label, red and dashed-animated when the sender's output channel is full (back-pressure). It
 * subscribes to its sender's figures only. Hovered or selected, it shows its columns and types
 * (EdgeSchemaPopover). Declared at module scope in Canvas's edgeTypes.
 */
import { memo } from 'react';
import { BaseEdge, EdgeLabelRenderer, getBezierPath, type EdgeProps } from '@xyflow/react';
import { useEdgeLive } from './useNodeLive.ts';
import { BACKPRESSURE_FULL, edgeWidth } from '../stores/nodeLive.ts';
import { count, rate } from './format.ts';
import { docStore } from '../state.ts';
import { useUi } from '../ui/uiStore.ts';
import { EdgeSchemaPopover } from '../schema/EdgeSchemaPopover.tsx';

function LiveEdgeImpl(p: EdgeProps) {
  const port = p.sourceHandleId === 'late' || p.sourceHandleId === 'bad' ? p.sourceHandleId : 'out';
  const live = useEdgeLive(p.source, port);
  const [path, labelX, labelY] = getBezierPath(p);
  // A boolean selector: hovering one edge re-renders that edge and the one it left, no other.
  const hovered = useUi((s) => s.hoveredEdge === p.id);
  const full = !!live && live.backPressure >= BACKPRESSURE_FULL;
  const style =
    live && port === 'out'
      ? { ...p.style, strokeWidth: edgeWidth(live.rate), ...(full ? { stroke: 'var(--err)' } : {}) }
      : p.style;
  return (
    <>
      <BaseEdge id={p.id} path={path} style={style} interactionWidth={20} markerEnd={p.markerEnd} />
      {(hovered || p.selected) && <EdgeSchemaPopover edgeId={p.id} x={labelX} y={labelY} pinned={!!p.selected} />}
      {live && (
        <EdgeLabelRenderer>
          <div
            className={`wedge-label nopan${full ? ' is-full' : ''}`}
            data-testid={`edge-rate-${p.id}`}
            // The label covers the edge's middle: clicking it selects the edge (its live sample opens).
            onClick={() => docStore.getState().select([], [p.id])}
            data-rate={live.rate}
            data-backpressure={live.backPressure}
            style={{ transform: `translate(-50%, -50%) translate(${labelX}px, ${labelY}px)` }}
            title={
              full
                ? 'Back-pressure: the output channel is full, the sender waits'
                : port === 'out'
                  ? 'Records per second on this connection'
                  : port === 'late'
                    ? 'Late records sent on this connection so far'
                    : 'Dead letters (records that did not parse) sent on this connection so far'
            }
          >
            {port === 'out' ? rate(live.rate) : `${port} ${count(live.late)}`}
            {full && <b> · back-pressure</b>}
            {!full && live.backPressure >= 0.5 && <span> · {Math.round(live.backPressure * 100)}% full</span>}
          </div>
        </EdgeLabelRenderer>
      )}
    </>
  );
}

export const LiveEdge = memo(LiveEdgeImpl);
// Named for React DevTools (and the e2e render counter): the minified build keeps no function names.
LiveEdge.displayName = 'LiveEdge';
