/**
 * Metrics: per operator its records in / out and current rates, watermark lag and back-pressure,
 * then their history over the run (one chart per measure, one line per operator) and checkpoint
 * duration and size over time. Numbers come from metricsStore (latest tick) and historyStore.
 */
import { useMemo } from 'react';
import type { JobNode } from '../../../engine/graph/types.ts';
import { useDoc } from '../state.ts';
import { useMetrics } from '../stores/metricsStore.ts';
import { useHistory } from '../stores/historyStore.ts';
import { useLive } from '../stores/liveStore.ts';
import { liveIndex } from '../stores/nodeLive.ts';
import { TimeChart, type ChartSeries } from './TimeChart.tsx';
import { bytes, count, duration, rate } from './format.ts';

/** Distinct on the dark theme, in node order. */
const COLORS = [
  '#4c8dff',
  '#3fb68b',
  '#c58af9',
  '#f0a04b',
  '#e3b341',
  '#f0605d',
  '#5ec8d8',
  '#d67bb0',
  '#a3be8c',
  '#8b95a3',
];

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
        {nodes.map((n, i) => {
          const l = idx.nodes.get(n.id);
          return (
            <tr
              key={n.id}
              data-testid={`metrics-row-${n.id}`}
              data-in={l?.recordsIn ?? ''}
              data-out={l?.recordsOut ?? ''}
            >
              <td>
                <span className="mchip" style={{ background: COLORS[i % COLORS.length] }} />
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

const pct = (v: number) => `${Math.round(v * 100)}%`;

export function MetricsTab() {
  const nodes = useDoc((s) => s.job.nodes);
  const time = useHistory((s) => s.time);
  const byNode = useHistory((s) => s.byNode);
  const checkpoints = useLive((s) => s.checkpoints);
  const shown = useMemo(() => nodes.filter((n) => byNode.has(n.id)), [nodes, byNode]);
  const series: ChartSeries[] = useMemo(
    () => shown.map((n) => ({ label: n.name || n.id, color: COLORS[nodes.indexOf(n) % COLORS.length] })),
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
  const cp = useMemo(() => {
    const done = checkpoints.filter((c) => c.status === 'completed' && c.duration !== null);
    return {
      time: done.map((c) => c.triggerTime / 1000),
      duration: done.map((c) => c.duration ?? 0),
      size: done.map((c) => c.checkpointedBytes),
    };
  }, [checkpoints]);
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
            format={rate}
          />
          <TimeChart
            title="Watermark lag"
            testId="chart-lag"
            time={time}
            values={lag}
            series={series}
            format={duration}
          />
          <TimeChart
            title="Back-pressure"
            testId="chart-backpressure"
            time={time}
            values={bp}
            series={series}
            format={pct}
          />
          <TimeChart
            title="Checkpoint duration"
            testId="chart-cp-duration"
            time={cp.time}
            values={[cp.duration]}
            series={[{ label: 'end to end', color: '#4c8dff' }]}
            format={duration}
          />
          <TimeChart
            title="Checkpoint size (written)"
            testId="chart-cp-size"
            time={cp.time}
            values={[cp.size]}
            series={[{ label: 'checkpointed', color: '#f0a04b' }]}
            format={bytes}
          />
        </div>
      )}
    </div>
  );
}
