/**
 * A small time-series chart on uPlot (a well-kept canvas chart library: ~50 KB, thousands of points
 * without React re-rendering them). The chart is built once per series layout and fed new data
 * with setData; a ResizeObserver keeps it as wide as its box.
 *
 * The x axis spans the run (`xRange`), not uPlot's guess: one sample alone gave it a range of years.
 * Value ticks come from the axis' own increments (chartAxes.ts) so no two read the same. Points are
 * drawn where samples are sparse (uPlot's default), so a short run's few samples are visible. The
 * figure carries the drawn x span, points and tick labels as data attributes for the e2e tests.
 *
 * A chart out of view is not redrawn: the Metrics tab's charts sit below a table of up to 50
 * operators, and the three per-operator charts of a long run (50 lines of 600 points) took 8-20 ms
 * to redraw, a frame's budget, on every history point, in view or not. An IntersectionObserver
 * tells when the chart is on screen; it draws its newest data then. The drawn x span, points and ticks are written when uPlot draws, so
 * they always describe what the canvas shows (`data-points` counts the data the chart holds).
 */
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { ValueAxis } from './chartAxes.ts';

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
  axis: ValueAxis;
  /** Seconds since the epoch: the x axis' first and last instant (the run's, shared by every chart). */
  xRange: readonly [number, number];
  height?: number;
}

/** What the effects share: the chart, the newest data, the data it last drew, whether it is on screen. */
interface DrawState {
  chart: uPlot | null;
  data: uPlot.AlignedData;
  drawn: uPlot.AlignedData | null;
  inView: boolean;
}

/** Hands the chart its newest data when it is on screen and has not drawn that data yet. */
function drawIfDue(s: DrawState): void {
  if (!s.chart || !s.inView || s.drawn === s.data) return;
  s.drawn = s.data;
  s.chart.setData(s.data);
}

const AXIS = {
  stroke: '#8b95a3',
  grid: { stroke: 'rgba(255,255,255,.06)', width: 1 },
  ticks: { stroke: 'rgba(255,255,255,.1)', width: 1 },
  font: '11px system-ui, sans-serif',
};

export function TimeChart(p: TimeChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const layout = p.series.map((s) => `${s.label}|${s.color}`).join(',');
  const fig = useRef<HTMLElement>(null);
  const formatRef = useRef(p.axis.format);
  formatRef.current = p.axis.format;
  const xRangeRef = useRef(p.xRange);
  xRangeRef.current = p.xRange;
  const incrs = p.axis.incrs;
  const drawnTicks = useRef<string[]>([]);
  const draw = useRef<DrawState>({ chart: null, data: [[]], drawn: null, inView: false });

  useEffect(() => {
    const f = fig.current;
    if (!f) return;
    const s = draw.current;
    const io = new IntersectionObserver((entries) => {
      s.inView = entries[entries.length - 1].isIntersecting;
      drawIfDue(s);
    });
    io.observe(f);
    return () => io.disconnect();
  }, []);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const opts: uPlot.Options = {
      width: Math.max(200, el.clientWidth),
      height: p.height ?? 150,
      // Labels only: live values under four charts at once would be noise (the table has the numbers).
      legend: { show: true, live: false },
      cursor: { drag: { x: false, y: false } },
      scales: {
        x: { time: true, range: () => [xRangeRef.current[0], xRangeRef.current[1]] },
        y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] },
      },
      axes: [
        { ...AXIS },
        {
          ...AXIS,
          size: 64,
          incrs: [...incrs],
          values: (_u, ticks) => (drawnTicks.current = ticks.map((t) => formatRef.current(t))),
        },
      ],
      hooks: {
        draw: [
          (u) => {
            const f = fig.current;
            if (!f) return;
            f.dataset.xSpan = String((u.scales.x.max ?? 0) - (u.scales.x.min ?? 0));
            f.dataset.drawnPoints = String(u.data[0]?.length ?? 0);
            f.dataset.yTicks = drawnTicks.current.join('|');
          },
        ],
      },
      series: [
        {},
        ...p.series.map((s) => ({
          label: s.label,
          stroke: s.color,
          width: 1.5,
          spanGaps: false,
          ...(s.dash ? { dash: [4, 3] } : {}),
          value: (_u: uPlot, v: number | null) => (v == null ? '—' : formatRef.current(v)),
        })),
      ],
    };
    const u = new uPlot(opts, [[]], el);
    const s = draw.current;
    s.chart = u;
    s.drawn = null;
    drawIfDue(s);
    const ro = new ResizeObserver(() => u.setSize({ width: Math.max(200, el.clientWidth), height: p.height ?? 150 }));
    ro.observe(el);
    return () => {
      ro.disconnect();
      u.destroy();
      s.chart = null;
    };
    // Rebuilt only when the series change (names or colours) or the axis, not on every data update.
  }, [layout, p.height, incrs]);

  // A new x range is new data too: the x scale reads it when the chart draws.
  useEffect(() => {
    const s = draw.current;
    s.data = [p.time as number[], ...p.values.map((v) => v as Array<number | null>)] as uPlot.AlignedData;
    drawIfDue(s);
  }, [p.time, p.values, layout, p.xRange]);

  return (
    <figure ref={fig} className="tchart" data-testid={p.testId} data-points={p.time.length}>
      <figcaption className="tchart__title">{p.title}</figcaption>
      <div ref={box} className="tchart__plot" />
    </figure>
  );
}
