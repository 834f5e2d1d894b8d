/**
 * Window assigners (Flink's `TumblingEventTimeWindows`, `SlidingEventTimeWindows`,
 * `EventTimeSessionWindows`). Aligned assigners give every record a fixed set of windows of one
 * size; the session assigner gives `[ts, ts + gap)`, which `session-merge.ts` merges with the
 * key's existing sessions.
 */
import { windowStart } from './time-window.ts';

export type WindowAssigner = AlignedWindowAssigner | SessionWindowAssigner;

/** Tumbling and sliding windows: every window has length `size`, so `end` identifies a window. */
export interface AlignedWindowAssigner {
  readonly kind: 'tumbling' | 'sliding';
  readonly size: number;
  readonly slide: number;
  /** How many windows one record belongs to (`size / slide`, rounded up; 1 for tumbling). */
  readonly windowsPerRecord: number;
  /**
   * Writes the ends of the windows holding `timestamp` into `ends` from index 0, latest window
   * first (Flink's order), and returns how many. `ends` must hold `windowsPerRecord` slots.
   */
  assignEnds(timestamp: number, ends: Float64Array): number;
}

export interface SessionWindowAssigner {
  readonly kind: 'session';
  readonly gap: number;
}

function checkPositive(what: string, value: number): void {
  if (!Number.isFinite(value) || value <= 0 || !Number.isInteger(value)) {
    throw new RangeError(`${what} must be a positive whole number of milliseconds, got ${value}`);
  }
}

export function tumblingWindows(size: number, offset = 0): AlignedWindowAssigner {
  checkPositive('window size', size);
  return {
    kind: 'tumbling',
    size,
    slide: size,
    windowsPerRecord: 1,
    assignEnds(timestamp, ends) {
      ends[0] = windowStart(timestamp, offset, size) + size;
      return 1;
    },
  };
}

export function slidingWindows(size: number, slide: number, offset = 0): AlignedWindowAssigner {
  checkPositive('window size', size);
  checkPositive('window slide', slide);
  if (slide > size) {
    // Flink allows it (records between windows are dropped by assignment); we refuse it because in
    // a designer it is nearly always a typo and silently loses data.
    throw new RangeError(`window slide (${slide} ms) must not be larger than the window size (${size} ms)`);
  }
  return {
    kind: 'sliding',
    size,
    slide,
    windowsPerRecord: Math.ceil(size / slide),
    assignEnds(timestamp, ends) {
      let n = 0;
      for (let start = windowStart(timestamp, offset, slide); start > timestamp - size; start -= slide) {
        ends[n++] = start + size;
      }
      return n;
    },
  };
}

export function sessionWindows(gap: number): SessionWindowAssigner {
  checkPositive('session gap', gap);
  return { kind: 'session', gap };
}
