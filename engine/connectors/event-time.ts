/**
 * Event time from a record field: epoch milliseconds (number or numeric string) or ISO-8601.
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
    return Date.parse(v);
  }
  if (v instanceof Date) return v.getTime();
  return NaN;
}
