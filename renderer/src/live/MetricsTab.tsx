/**
 * Metrics: per operator its records in / out and current rates, watermark lag and back-pressure,
 * then their history over the run (one chart per measure, one line per operator) and checkpoint
 * duration and size over time. Numbers come from metricsStore (latest tick) and historyStore.
 */
import { useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { JobNode } from '../../../engine/graph/types.ts';
import type { CheckpointStats } from '../../../engine/contracts/checkpoint.ts';
import { useDoc } from '../state.ts';
import { useMetrics } from '../stores/metricsStore.ts';
import { useHistory } from '../stores/historyStore.ts';
import { useLive } from '../stores/liveStore.ts';
import { liveIndex } from '../stores/nodeLive.ts';
import { useRun } from '../stores/runStore.ts';
import { nodeColor } from '../model/nodeColors.ts';
import { TimeChart, type ChartSeries } from './TimeChart.tsx';
import { BYTES_AXIS, DURATION_AXIS, RATE_AXIS, RATIO_AXIS } from './chartAxes.ts';
import { count, duration, rate } from './format.ts';

function OperatorTable({ nodes }: { nodes: readonly JobNode[] }) {
  const idx = useMetrics(liveIndex);
  return (
    <table className="live-table" data-testid="metrics-table">
      <thead>
        <tr>
          <th>operator</th>
          <th>records in</th>
          <th>records out</th>
          <th>rate in</th>
          <th>rate out</th>
          <th title="Newest event time seen by the sources minus this operator's watermark">watermark lag</th>
          <th title="Fill of the fullest output channel: 100% = the operator waits for downstream">back-pressure</th>
          <th title="Share of each second its busiest subtask spent in this operator's own code; the busiest operator is the bottleneck">
            busy
          </th>
          <th>subtasks</th>
        </tr>
      </thead>
      <tbody>
        {nodes.map((n) => {
          const l = idx.nodes.get(n.id);
          return (
            <tr
              key={n.id}
              data-testid={`metrics-row-${n.id}`}
              data-in={l?.recordsIn ?? ''}
              data-out={l?.recordsOut ?? ''}
            >
              <td>
                <span className="mchip" style={{ background: nodeColor(nodes, n) }} />
                {n.name || n.id}
              </td>
              <td>{l ? count(l.recordsIn) : '—'}</td>
              <td>{l ? count(l.recordsOut) : '—'}</td>
              <td>{l ? rate(l.rateIn) : '—'}</td>
              <td>{l ? rate(l.rateOut) : '—'}</td>
              <td>{l?.lag != null ? duration(l.lag) : '—'}</td>
              <td>{l ? `${Math.round(l.backPressure * 100)}%` : '—'}</td>
              <td data-testid={`metrics-busy-${n.id}`}>
                {l?.busy != null ? `${Math.round(l.busy * 100)}%${l.bottleneck ? ' (bottleneck)' : ''}` : '—'}
              </td>
              <td>{l?.subtasks ?? '—'}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/**
 * The charts' common x axis in seconds: from the run's start (or its first sample) to its last
 * sample, at least one second, so a finished 2-s run shows 2 s and every chart lines up.
 */
function runSpan(startedAt: number | null, ...series: ReadonlyArray<readonly number[]>): readonly [number, number] {
  const firsts = series.flatMap((t) => (t.length ? [t[0]] : []));
  const lasts = series.flatMap((t) => (t.length ? [t[t.length - 1]] : []));
  const start = Math.min(...firsts, ...(startedAt ? [startedAt / 1000] : []));
  const end = Math.max(...lasts, start);
  return [start, Math.max(end, start + 1)];
}

const completed = (c: CheckpointStats) => c.status === 'completed' && c.duration !== null;

export function MetricsTab() {
  const nodes = useDoc((s) => s.job.nodes);
  const time = useHistory((s) => s.time);
  const byNode = useHistory((s) => s.byNode);
  // Selected shallowly, so a tick that adds no operator and no completed checkpoint keeps the
  // series, the checkpoint points and the x range as they were, and charts with unchanged data
  // are not redrawn.
  const ids = useHistory(useShallow((s) => [...s.byNode.keys()]));
  const done = useLive(useShallow((s) => s.checkpoints.filter(completed)));
  const startedAt = useRun((s) => s.startedAt);
  const shown = useMemo(() => nodes.filter((n) => ids.includes(n.id)), [nodes, ids]);
  const series: ChartSeries[] = useMemo(
    () => shown.map((n) => ({ label: n.name || n.id, color: nodeColor(nodes, n) })),
    [shown, nodes],
  );
  // Throughput: what each operator emits; sinks emit nothing, so their input rate.
  const throughput = useMemo(
    () =>
      shown.map((n) => {
        const h = byNode.get(n.id)!;
        return n.type.startsWith('sink.') ? h.rateIn : h.rateOut;
      }),
    [shown, byNode],
  );
  const lag = useMemo(() => shown.map((n) => byNode.get(n.id)!.lag), [shown, byNode]);
  const bp = useMemo(() => shown.map((n) => byNode.get(n.id)!.backPressure), [shown, byNode]);
  const cp = useMemo(
    () => ({
      time: done.map((c) => c.triggerTime / 1000),
      duration: done.map((c) => c.duration ?? 0),
      size: done.map((c) => c.checkpointedBytes),
    }),
    [done],
  );
  const [x0, x1] = runSpan(startedAt, time, cp.time);
  const xRange = useMemo(() => [x0, x1] as const, [x0, x1]);
  return (
    <div className="mtab">
      <div className="mtab__table">
        <OperatorTable nodes={nodes} />
      </div>
      {time.length === 0 ? (
        <div className="dim mtab__empty">Charts fill in once a run reports its first figures.</div>
      ) : (
        <div className="mtab__charts">
          <TimeChart
            title="Throughput (records/s)"
            testId="chart-throughput"
            time={time}
            values={throughput}
            series={series}
            axis={RATE_AXIS}
            xRange={xRange}
          />
          <TimeChart
            title="Watermark lag"
            testId="chart-lag"
            time={time}
            values={lag}
            series={series}
            axis={DURATION_AXIS}
            xRange={xRange}
          />
          <TimeChart
            title="Back-pressure"
            testId="chart-backpressure"
            time={time}
            values={bp}
            series={series}
            axis={RATIO_AXIS}
            xRange={xRange}
          />
          <TimeChart
            title="Checkpoint duration"
            testId="chart-cp-duration"
            time={cp.time}
            values={[cp.duration]}
            series={[{ label: 'end to end', color: '#4c8dff' }]}
            axis={DURATION_AXIS}
            xRange={xRange}
          />
          <TimeChart
            title="Checkpoint size (written)"
            testId="chart-cp-size"
            time={cp.time}
            values={[cp.size]}
            series={[{ label: 'checkpointed', color: '#f0a04b' }]}
            axis={BYTES_AXIS}
            xRange={xRange}
          />
        </div>
      )}
    </div>
  );
}
