/**
 * Event time of PostgreSQL rows: the `eventTime.field` column, NaN without one. Timestamp and date
 * columns are Weir's ISO-8601 UTC text (pg-values.ts), read as any ISO-8601 or epoch-digit text is
 * by file sources; a number is epoch milliseconds.
 */
import type { Row } from '../../contracts/operator.ts';

/** JavaScript's Date range, as engine/connectors/formats/event-time.ts (not imported: folders point one way). */
const MAX_EVENT_TIME = 8.64e15;

function toEventTime(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string') return /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : Date.parse(v);
  return NaN;
}

/** The event time of `row`, or a message saying why it has none (the caller reports a bad record). */
export function rowEventTime(row: Row, field: string | undefined): number | string {
  if (field === undefined) return NaN;
  const t = toEventTime(row[field]);
  if (!Number.isFinite(t)) return `column '${field}' is not a timestamp (got ${JSON.stringify(row[field])})`;
  if (Math.abs(t) > MAX_EVENT_TIME) return `column '${field}' = ${t} is outside the representable event-time range`;
  return t;
}
