/**
 * The value axes of the live charts: each pairs a formatter with the tick increments uPlot may
 * choose from (its `incrs`), picked so that every set of ticks it can draw formats to distinct
 * labels. uPlot's default increments include 0.5, which `rate` shows as `1/s` beside the `1/s` of 1,
 * hence ticks reading `1/s, 1/s, 0/s` on a short run; only steps the formatter can tell apart are
 * offered here. Plain TS: test/renderer/live/chartAxes.test.ts checks every increment.
 */
import { bytes, duration, rate } from './format.ts';

export interface ValueAxis {
  format: (v: number) => string;
  /** Tick steps, ascending; ticks start at 0, so every tick is a multiple of the chosen step. */
  incrs: readonly number[];
}

/** 1, 2, 5, 10, 20, 50 … from `from` up to `to`, each times `unit`. */
function steps125(from: number, to: number, unit = 1): number[] {
  const out: number[] = [];
  for (let m = from; m <= to; m *= 10) for (const s of [1, 2, 5]) if (m * s <= to) out.push(m * s * unit);
  return out;
}

const pct = (v: number) => `${Math.round(v * 100)}%`;

/** Records per second: whole numbers (rate() rounds below 1,000). */
export const RATE_AXIS: ValueAxis = { format: rate, incrs: steps125(1, 1e9) };

/** Milliseconds: whole ms below a second, then seconds and minutes a person counts in. */
export const DURATION_AXIS: ValueAxis = {
  format: duration,
  incrs: [
    ...steps125(1, 500),
    ...[1, 2, 5, 10, 15, 30].map((s) => s * 1000),
    ...[1, 2, 5, 10, 15, 30, 60, 120, 240].map((m) => m * 60_000),
  ],
};

/** A share of 1 shown in whole percent. */
export const RATIO_AXIS: ValueAxis = { format: pct, incrs: [0.01, 0.02, 0.05, 0.1, 0.2, 0.25, 0.5, 1] };

/** Bytes: 1-2-5 steps of B, then of KB, MB and GB (bytes() divides by 1024). */
export const BYTES_AXIS: ValueAxis = {
  format: bytes,
  incrs: [0, 1, 2, 3].flatMap((p) => steps125(1, 500, 1024 ** p)),
};
