/**
 * Event-time windows as Flink's `TimeWindow`: `[start, end)` in epoch milliseconds, end exclusive.
 * A window's last event time is `end - 1` (`maxTimestamp`); it fires once the watermark reaches it.
 */

export interface TimeWindow {
  start: number;
  end: number;
}

/** Flink's `TimeWindow.getWindowStartWithOffset`, correct for negative timestamps too. */
export function windowStart(timestamp: number, offset: number, size: number): number {
  const rem = (timestamp - offset) % size;
  return timestamp - (rem < 0 ? rem + size : rem);
}

export function maxTimestamp(end: number): number {
  return end - 1;
}

/**
 * Flink's `TimeWindow.intersects`: inclusive on both sides, so sessions that merely touch
 * (`[0,10)` and `[10,20)`) merge as they do in Flink.
 */
export function intersects(aStart: number, aEnd: number, bStart: number, bEnd: number): boolean {
  return aStart <= bEnd && aEnd >= bStart;
}

const isoCache = new Map<number, string>();

/**
 * ISO-8601 UTC with milliseconds, the format of `window_start` / `window_end` output columns.
 * Cached: every key of a window shares its bounds, and formatting a Date is slow.
 */
export function isoTime(ms: number): string {
  let s = isoCache.get(ms);
  if (s === undefined) {
    s = new Date(ms).toISOString();
    if (isoCache.size >= 4096) isoCache.clear();
    isoCache.set(ms, s);
  }
  return s;
}
