import { parseDuration } from '../../graph/units.ts';
import type { EventTimeConfig } from '../../graph/types.ts';
import type { Col } from './context.ts';
import { quoteIdent } from './identifiers.ts';
import { intervalLiteral } from './intervals.ts';

/**
 * The event-time attribute of a source table. Weir reads event time from a field holding epoch
 * milliseconds or an ISO-8601 string and keeps the field itself as an ordinary column; here the
 * field stays as it is and a computed TIMESTAMP_LTZ(3) column (`rowtime`) carries the watermark.
 *
 * Weir's watermark is `maxTimestamp - maxOutOfOrderness - 1` (Flink's DataStream
 * BoundedOutOfOrderness rule); a Flink SQL watermark is exactly the expression given, so the
 * exported expression subtracts the extra millisecond to fire windows at the same moment.
 */
export function rowtimeExpression(field: string, col: Col | undefined): { expr: string; note?: string } {
  const f = quoteIdent(field);
  const type = (col?.type ?? 'BIGINT').toUpperCase();
  if (/^(TINYINT|SMALLINT|INT|INTEGER|BIGINT|DECIMAL)/.test(type)) return { expr: `TO_TIMESTAMP_LTZ(${f}, 3)` };
  if (/^(DOUBLE|FLOAT|REAL)/.test(type)) return { expr: `TO_TIMESTAMP_LTZ(CAST(${f} AS BIGINT), 3)` };
  if (/^TIMESTAMP_LTZ|^TIMESTAMP\(\d\) WITH LOCAL TIME ZONE/.test(type)) return { expr: `CAST(${f} AS TIMESTAMP_LTZ(3))` };
  if (/^TIMESTAMP/.test(type)) return { expr: `CAST(${f} AS TIMESTAMP_LTZ(3))` };
  // ISO-8601 text such as 2024-01-01T00:00:00.000Z: Flink casts 'yyyy-MM-dd HH:mm:ss.SSS' to a
  // TIMESTAMP, read as UTC because the script sets table.local-time-zone to UTC. Text that does
  // not start like a date (a CSV header line) gives NULL instead of a failing CAST.
  return {
    expr: `CASE WHEN ${f} LIKE '____-__-__%' THEN CAST(CAST(REPLACE(REPLACE(${f}, 'T', ' '), 'Z', '') AS TIMESTAMP(3)) AS TIMESTAMP_LTZ(3)) END`,
    note: `${field} holds ISO-8601 text: read as UTC; offsets other than Z are not understood by this cast`,
  };
}

export function watermarkClause(rowtime: string, et: EventTimeConfig): string {
  const ooo = et.maxOutOfOrderness === undefined ? 0 : parseDuration(et.maxOutOfOrderness);
  const r = quoteIdent(rowtime);
  const delay = ooo > 0 ? ` - ${intervalLiteral(ooo)}` : '';
  return `WATERMARK FOR ${r} AS ${r}${delay} - INTERVAL '0.001' SECOND`;
}

export function idleTimeoutOf(et: EventTimeConfig | undefined): number | null {
  return et?.idleTimeout === undefined ? null : parseDuration(et.idleTimeout);
}
