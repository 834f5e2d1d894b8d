/**
 * Bounds the schema cannot express (engine/graph/check-ranges.ts explains them): a definition's
 * `checkRanges` reports its config's out-of-range values through a RangeChecker.
 */
import type { DurationInput, EventTimeConfig } from './config.ts';

/** Node's timer limit (about 24.8 days): a longer timer would fire after 1 ms. */
export const MAX_TIMER_MS = 2 ** 31 - 1;
/** Event-time durations: 1000 years, so window ends of any representable event time stay exact. */
export const MAX_EVENT_DURATION_MS = 1000 * 365 * 86_400_000;
/** The Date range. */
export const MAX_TIMESTAMP_MS = 8.64e15;

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
