/**
 * A small time-series chart on uPlot (a well-kept canvas chart library: ~50 KB, thousands of points
 * without React re-rendering them). The chart is built once per series layout and fed new data
 * with setData; a ResizeObserver keeps it as wide as its box.
 */
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface ChartSeries {
  label: string;
  color: string;
  dash?: boolean;
}

export interface TimeChartProps {
  title: string;
  testId: string;
  /** Seconds since the epoch, one per point. */
  time: readonly number[];
  values: ReadonlyArray<ReadonlyArray<number | null>>;
  series: readonly ChartSeries[];
  format: (v: number) => string;
  height?: number;
}

const AXIS = {
  stroke: '#8b95a3',
  grid: { stroke: 'rgba(255,255,255,.06)', width: 1 },
  ticks: { stroke: 'rgba(255,255,255,.1)', width: 1 },
  font: '11px system-ui, sans-serif',
};

export function TimeChart(p: TimeChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<uPlot | null>(null);
  const layout = p.series.map((s) => `${s.label}|${s.color}`).join(',');
  const formatRef = useRef(p.format);
  formatRef.current = p.format;

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const opts: uPlot.Options = {
      width: Math.max(200, el.clientWidth),
      height: p.height ?? 150,
      // Labels only: live values under four charts at once would be noise (the table has the numbers).
      legend: { show: true, live: false },
      cursor: { drag: { x: false, y: false } },
      scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] } },
      axes: [{ ...AXIS }, { ...AXIS, size: 64, values: (_u, ticks) => ticks.map((t) => formatRef.current(t)) }],
      series: [
        {},
        ...p.series.map((s) => ({
          label: s.label,
          stroke: s.color,
          width: 1.5,
          points: { show: false },
          spanGaps: false,
          ...(s.dash ? { dash: [4, 3] } : {}),
          value: (_u: uPlot, v: number | null) => (v == null ? '—' : formatRef.current(v)),
        })),
      ],
    };
    const u = new uPlot(opts, [[]], el);
    chart.current = u;
    const ro = new ResizeObserver(() => u.setSize({ width: Math.max(200, el.clientWidth), height: p.height ?? 150 }));
    ro.observe(el);
    return () => {
      ro.disconnect();
      u.destroy();
      chart.current = null;
    };
    // Rebuilt only when the series change (names or colours), not on every data update.
  }, [layout, p.height]);

  useEffect(() => {
    chart.current?.setData([
      p.time as number[],
      ...p.values.map((v) => v as Array<number | null>),
    ] as uPlot.AlignedData);
  }, [p.time, p.values, layout]);

  return (
    <figure className="tchart" data-testid={p.testId} data-points={p.time.length}>
      <figcaption className="tchart__title">{p.title}</figcaption>
      <div ref={box} className="tchart__plot" />
    </figure>
  );
}
