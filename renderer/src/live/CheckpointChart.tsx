/**
 * Duration and size of checkpoints over time, plain SVG (two series share the x axis: checkpoint
 * order; duration as bars on the left scale, checkpointed and full size as lines on the right).
 */
import type { ChartPoint } from './checkpointSummary.ts';
import { bytes, duration } from './format.ts';

const W = 520;
const H = 200;
const PAD = { l: 52, r: 60, t: 10, b: 20 };

export function CheckpointChart({ points, onPick }: { points: ChartPoint[]; onPick: (id: number) => void }) {
  if (points.length === 0)
    return (
      <div className="cp-chart cp-chart--empty" data-testid="cp-chart">
        No completed checkpoint yet.
      </div>
    );
  const maxD = Math.max(1, ...points.map((p) => p.duration));
  const maxB = Math.max(1, ...points.map((p) => Math.max(p.full, p.checkpointed)));
  const iw = W - PAD.l - PAD.r;
  const ih = H - PAD.t - PAD.b;
  const step = iw / points.length;
  const x = (i: number) => PAD.l + step * (i + 0.5);
  const yD = (v: number) => PAD.t + ih - (v / maxD) * ih;
  const yB = (v: number) => PAD.t + ih - (v / maxB) * ih;
  const line = (f: (p: ChartPoint) => number) =>
    points.map((p, i) => `${i ? 'L' : 'M'}${x(i).toFixed(1)},${yB(f(p)).toFixed(1)}`).join('');
  const bw = Math.max(1, Math.min(14, step * 0.6));
  return (
    <svg
      className="cp-chart"
      data-testid="cp-chart"
      data-points={points.length}
      viewBox={`0 0 ${W} ${H}`}
      role="img"
      aria-label="Checkpoint duration and size over time"
    >
      <line x1={PAD.l} x2={W - PAD.r} y1={PAD.t + ih} y2={PAD.t + ih} className="cp-chart__axis" />
      <text x={PAD.l - 6} y={PAD.t + 8} className="cp-chart__tick" textAnchor="end">
        {duration(maxD)}
      </text>
      <text x={PAD.l - 6} y={PAD.t + ih} className="cp-chart__tick" textAnchor="end">
        0
      </text>
      <text x={W - PAD.r + 6} y={PAD.t + 8} className="cp-chart__tick cp-chart__tick--size">
        {bytes(maxB)}
      </text>
      <text x={W - PAD.r + 6} y={PAD.t + ih} className="cp-chart__tick cp-chart__tick--size">
        0
      </text>
      {points.map((p, i) => (
        <rect
          key={p.id}
          x={x(i) - bw / 2}
          y={yD(p.duration)}
          width={bw}
          height={Math.max(1, PAD.t + ih - yD(p.duration))}
          className={`cp-chart__bar${p.failed ? ' is-failed' : ''}${p.savepoint ? ' is-savepoint' : ''}`}
          onClick={() => onPick(p.id)}
        >
          <title>{`#${p.id}${p.savepoint ? ' savepoint' : ''}${p.failed ? ' FAILED' : ''}: ${duration(p.duration)}, checkpointed ${bytes(p.checkpointed)}, full ${bytes(p.full)}`}</title>
        </rect>
      ))}
      <path d={line((p) => p.full)} className="cp-chart__full" />
      <path d={line((p) => p.checkpointed)} className="cp-chart__inc" />
      <text x={PAD.l} y={H - 4} className="cp-chart__legend">
        <tspan className="lg-dur">▮ duration (left)</tspan>
        <tspan dx="12" className="lg-full">
          — full size
        </tspan>
        <tspan dx="12" className="lg-inc">
          — checkpointed size (right)
        </tspan>
        <tspan dx="12">
          #{points[0].id} … #{points[points.length - 1].id}
        </tspan>
      </text>
    </svg>
  );
}
