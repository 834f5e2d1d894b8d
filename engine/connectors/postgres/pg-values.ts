/**
 * PostgreSQL values as Weir row values, the same for a snapshot row (pg's text parsers) and a
 * replicated change (pgoutput text tuples parsed by the same parsers), so a row read either way is
 * identical. bigint is a number when it is a safe integer (else its exact digits as a string),
 * numeric is a number (Weir's DECIMAL values are numbers read by their shortest decimal form; more
 * than ~15 significant digits lose precision, docs/connectors/postgres.md).
 *
 * `timestamp` and `timestamptz` are Weir's TIMESTAMP values (engine/sql/values.ts `toTimestamp`:
 * ISO-8601 UTC text with milliseconds, the form of a window's bounds and of CAST(x AS TIMESTAMP)),
 * so expressions, event time and every sink read them as any other TIMESTAMP; a `timestamp`
 * without a zone is read as UTC (Weir's and the export's session zone), as the sink writes it.
 * `date` is its `yyyy-MM-dd` text (Flink's JSON form of a DATE), which Weir's time functions and
 * event time read as UTC midnight. Digits past the millisecond are dropped (pg's parser builds a
 * JavaScript Date); PostgreSQL's `infinity` and `-infinity` stay that text, and a year past
 * JavaScript's range (275760) is NULL.
 */
import { toTimestamp } from '../../sql/values.ts';

const INT8 = 20;
const NUMERIC = 1700;
const DATE = 1082;
const TIMESTAMP = 1114;
const TIMESTAMPTZ = 1184;

/**
 * pg builds a zoneless timestamp or date from its fields as local time; the same fields as UTC.
 * Read back from the fields (not by the offset) so that no zone rule of the process can shift it.
 */
function localFieldsAsUtc(d: Date): number {
  const utc = new Date(0);
  utc.setUTCFullYear(d.getFullYear(), d.getMonth(), d.getDate());
  utc.setUTCHours(d.getHours(), d.getMinutes(), d.getSeconds(), d.getMilliseconds());
  return utc.getTime();
}

/** pg's parser gives ±Infinity for `infinity`: kept as PostgreSQL's own text. */
function infinite(v: unknown): string | null {
  return v === Infinity ? 'infinity' : v === -Infinity ? '-infinity' : null;
}

export function pgValue(typeOid: number, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  switch (typeOid) {
    case INT8: {
      const n = Number(v);
      return Number.isSafeInteger(n) ? n : String(v);
    }
    case NUMERIC: {
      const n = Number(v);
      return Number.isFinite(n) ? n : String(v); // 'NaN' stays text
    }
    case DATE:
      return v instanceof Date ? (toTimestamp(localFieldsAsUtc(v))?.slice(0, -14) ?? null) : (infinite(v) ?? v);
    case TIMESTAMP:
      return v instanceof Date ? toTimestamp(localFieldsAsUtc(v)) : (infinite(v) ?? v);
    case TIMESTAMPTZ:
      return v instanceof Date ? toTimestamp(v.getTime()) : (infinite(v) ?? v);
    default:
      return v instanceof Date ? v.getTime() : v;
  }
}
