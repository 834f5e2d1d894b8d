/**
 * Bounds the schema cannot express (engine/graph/check-ranges.ts explains them): a definition's
 * `checkRanges` reports its config's out-of-range values through a RangeChecker.
 */
import type { DurationInput, EventTimeConfig, WindowSpec } from './config.ts';
import { checkDuration } from './units.ts';

/** Node's timer limit (about 24.8 days): a longer timer would fire after 1 ms. */
export const MAX_TIMER_MS = 2 ** 31 - 1;
/** Event-time durations: 1000 years, so window ends of any representable event time stay exact. */
export const MAX_EVENT_DURATION_MS = 1000 * 365 * 86_400_000;
/** The Date range. */
export const MAX_TIMESTAMP_MS = 8.64e15;

/**
 * Sliding windows a record belongs to (size/slide, rounded up). Every record updates each of its
 * windows (a state entry and a timer per key and window), and the window operators hold a batch's
 * (record, window) pairs in typed arrays: 1,024 records × 10,000 windows is already ~164 MB of
 * pairs, and 10 days sliding by 1 ms (864,000,000) overflows a typed array outright.
 */
export const MAX_WINDOWS_PER_RECORD = 10_000;

/** Checks at config paths relative to `config` (`eventTime.idleTimeout`). */
export interface RangeChecker {
  /** An event-time duration: at most MAX_EVENT_DURATION_MS. */
  span(field: string, v: DurationInput | null | undefined): void;
  /** A duration that becomes a timer: at most MAX_TIMER_MS. */
  timer(field: string, v: DurationInput | null | undefined): void;
  int(field: string, v: number | undefined, max: number): void;
  error(field: string, message: string): void;
}

/** A source's event-time bounds. */
export function checkEventTimeRanges(r: RangeChecker, et: EventTimeConfig | undefined): void {
  r.span('eventTime.maxOutOfOrderness', et?.maxOutOfOrderness);
  r.timer('eventTime.idleTimeout', et?.idleTimeout);
}

/** An event time of `at` ms within ±MAX_TIMESTAMP_MS; false (and a problem at `field`) when not. */
export function checkTimestamp(r: RangeChecker, field: string, at: number): boolean {
  if (Math.abs(at) <= MAX_TIMESTAMP_MS) return true;
  r.error(field, `${at} is outside the representable event-time range (±${MAX_TIMESTAMP_MS} ms)`);
  return false;
}

/** A sliding window spec at `field` whose windows per record stay within MAX_WINDOWS_PER_RECORD. */
export function checkWindowsPerRecord(r: RangeChecker, field: string, w: WindowSpec | undefined): void {
  if (w?.kind !== 'sliding') return;
  const size = checkDuration(w.size);
  const slide = checkDuration(w.slide);
  if (!size.ok || !slide.ok || !(slide.value > 0)) return; // reported by the other checks
  const perRecord = Math.ceil(size.value / slide.value);
  if (perRecord > MAX_WINDOWS_PER_RECORD) {
    const n = (v: number) => v.toLocaleString('en-US');
    r.error(
      field,
      `size/slide = ${n(perRecord)} windows per record; at most ${n(MAX_WINDOWS_PER_RECORD)} (each record updates every window it belongs to): use a larger slide`,
    );
  }
}
