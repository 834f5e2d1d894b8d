import { utcDateTimeText } from '../../sql/values.ts';

/**
 * Event time from a record field: epoch milliseconds (number or numeric string) or ISO-8601.
 * A date-time without a zone is a TIMESTAMP's wall clock, read as UTC as Flink reads a TIMESTAMP
 * rowtime and as Weir's own TIMESTAMP values (sql/values.ts toTimestamp) are: Date.parse would read
 * it in the machine's zone, so windows moved with the TZ of the process.
 * Returns NaN when the value is missing or does not parse (the caller reports a bad record).
 */
export function parseEventTime(v: unknown): number {
  if (typeof v === 'number') return Number.isFinite(v) ? v : NaN;
  if (typeof v === 'string') {
    if (v.length === 0) return NaN;
    const c = v.charCodeAt(0);
    if ((c >= 48 && c <= 57) || c === 45) {
      // Plain digits: epoch ms; otherwise an ISO date such as 2024-01-01T00:00:00Z.
      if (/^-?\d+(\.\d+)?$/.test(v)) return Number(v);
    }
    const last = v.charCodeAt(v.length - 1);
    // Only text ending in a digit can lack a zone: `…Z`, the common case, skips the patterns.
    return Date.parse(last >= 48 && last <= 57 ? utcDateTimeText(v) : v);
  }
  if (v instanceof Date) return v.getTime();
  return NaN;
}

/**
 * The event times Weir represents exactly: JavaScript's Date range (±8.64e15 ms, about ±273,790
 * years). With window sizes bounded by validation (graph/check-ranges.ts) every window start and
 * end stays below 2^53, so window arithmetic is exact. A record outside it is a bad record.
 */
export const MAX_EVENT_TIME = 8.64e15;

export function eventTimeInRange(t: number): boolean {
  return t >= -MAX_EVENT_TIME && t <= MAX_EVENT_TIME;
}
