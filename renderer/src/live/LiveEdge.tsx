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
import { BP_COLORS, useBackPressuredPercent } from '../debug/backPressure.ts';
import { backPressureLevel } from '../stores/backPressureLevels.ts';
import { useTraceEdge } from '../debug/previewStore.ts';

function LiveEdgeImpl(p: EdgeProps) {
  const port = p.sourceHandleId === 'late' || p.sourceHandleId === 'bad' ? p.sourceHandleId : 'out';
  const live = useEdgeLive(p.source, port);
  const [path, labelX, labelY] = getBezierPath(p);
  // A boolean selector: hovering one edge re-renders that edge and the one it left, no other.
  const hovered = useUi((s) => s.hoveredEdge === p.id);
  const full = !!live && live.backPressure >= BACKPRESSURE_FULL;
  // Flink measures back-pressure at the sender: its back-pressured time colours its outgoing edges.
  const bp = useBackPressuredPercent(port === 'out' ? p.source : '');
  const level = backPressureLevel(bp === null ? null : bp / 100);
  const trace = useTraceEdge(p.source, p.target);
  const stroke = level !== 'ok' ? BP_COLORS[level] : full ? 'var(--err)' : undefined;
  const style =
    live && port === 'out' ? { ...p.style, strokeWidth: edgeWidth(live.rate), ...(stroke ? { stroke } : {}) } : p.style;
  const traced =
    trace === 'on'
      ? { ...style, stroke: 'var(--accent)', strokeWidth: 3 }
      : trace === 'off'
        ? { ...style, opacity: 0.2 }
        : style;
  const bpText = level !== 'ok' ? `back-pressured ${bp}%` : null;
  return (
    <>
      <BaseEdge id={p.id} path={path} style={traced} interactionWidth={20} markerEnd={p.markerEnd} />
      {(hovered || p.selected) && <EdgeSchemaPopover edgeId={p.id} x={labelX} y={labelY} pinned={!!p.selected} />}
      {live && (
        <EdgeLabelRenderer>
          <div
            className={`wedge-label nopan${full ? ' is-full' : ''}${level !== 'ok' ? ` is-bp-${level}` : ''}`}
            data-testid={`edge-rate-${p.id}`}
            // The label covers the edge's middle: clicking it selects the edge (its live sample opens).
            onClick={() => docStore.getState().select([], [p.id])}
            data-rate={live.rate}
            data-backpressure={live.backPressure}
            data-backpressured={bp ?? ''}
            data-bp-level={level}
            style={{ transform: `translate(-50%, -50%) translate(${labelX}px, ${labelY}px)` }}
            title={
              bpText
                ? `The sender ${p.source} is ${bpText}: that share of each second it waited for a full output (Flink's backPressuredTimeMsPerSecond). The node this edge leads to cannot keep up.`
                : full
                  ? 'Back-pressure: the output channel is full, the sender waits'
                  : port === 'out'
                    ? 'Records per second on this connection'
                    : port === 'late'
                      ? 'Late records sent on this connection so far'
                      : 'Dead letters (records that did not parse) sent on this connection so far'
            }
          >
            {port === 'out' ? rate(live.rate) : `${port} ${count(live.late)}`}
            {bpText ? <b> · {bpText}</b> : full && <b> · back-pressure</b>}
            {!full && !bpText && live.backPressure >= 0.5 && (
              <span> · {Math.round(live.backPressure * 100)}% full</span>
            )}
          </div>
        </EdgeLabelRenderer>
      )}
    </>
  );
}

export const LiveEdge = memo(LiveEdgeImpl);
// Named for React DevTools (and the e2e render counter): the minified build keeps no function names.
LiveEdge.displayName = 'LiveEdge';
