import { parseDuration } from '../../graph/units.ts';
import type { EventTimeConfig } from '../../graph/types.ts';
import type { Col } from './context.ts';
import { quoteIdent } from './identifiers.ts';
import { intervalLiteral } from './intervals.ts';

/**
 * The event-time attribute of a source table. Weir reads event time from a field holding epoch
 * milliseconds (a number or a numeric string) or ISO-8601 text and keeps the field itself as an
 * ordinary column; here the field stays as it is and a computed TIMESTAMP_LTZ(3) column (`rowtime`)
 * carries the watermark.
 *
 * A record whose event time is missing or malformed is skipped by Weir (or fails the job with
 * `onBadRecord: 'fail'`). Flink's WatermarkAssignerOperator throws on a NULL rowtime ("RowTime field
 * should not be null"), so the computed column is never NULL: a bad value maps to epoch 0 (it cannot
 * advance the watermark) and `valid` is the condition the source's view filters on, so the record
 * is dropped before any window, as in Weir. With 'fail' a bad value instead evaluates a CAST of text
 * naming the field and the value to BIGINT, which fails the Flink job with that text. A CSV header
 * line (`header`) maps to epoch 0 even then: Weir never reads it as a record.
 *
 * Weir's watermark is `maxTimestamp - maxOutOfOrderness - 1` (Flink's DataStream
 * BoundedOutOfOrderness rule); a Flink SQL watermark is exactly the expression given, so the
 * exported expression subtracts the extra millisecond to fire windows at the same moment.
 */
export interface RowtimeColumn {
  /** The computed column's expression; never NULL. */
  expr: string;
  /** TRUE when Weir accepts the record's event time (NULL counts as not). */
  valid: string;
  note?: string;
}

/** ISO-8601 as Weir's Date.parse reads it: a date, optionally a time, optionally Z. */
const ISO_PATTERN =
  "'^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])([T ]([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9](\\.[0-9]{1,9})?)?Z?)?$'";
const EPOCH_PATTERN = "'^-?[0-9]{1,18}$'";

export function rowtimeExpression(
  field: string,
  col: Col | undefined,
  onBadRecord: 'skip' | 'fail',
  header?: string,
): RowtimeColumn {
  const f = quoteIdent(field);
  const type = (col?.type ?? 'BIGINT').toUpperCase();
  let valid: string;
  let conv: string;
  let note: string | undefined;
  if (/^(TINYINT|SMALLINT|INT|INTEGER|BIGINT|DECIMAL)/.test(type)) {
    valid = `${f} IS NOT NULL`;
    conv = `TO_TIMESTAMP_LTZ(${f}, 3)`;
  } else if (/^(DOUBLE|FLOAT|REAL)/.test(type)) {
    valid = `${f} IS NOT NULL`;
    conv = `TO_TIMESTAMP_LTZ(CAST(${f} AS BIGINT), 3)`;
  } else if (/^TIMESTAMP/.test(type)) {
    valid = `${f} IS NOT NULL`;
    conv = `CAST(${f} AS TIMESTAMP_LTZ(3))`;
  } else {
    // Text: epoch milliseconds in digits, or ISO-8601 such as 2024-01-01T00:00:00.000Z, which Flink
    // casts from 'yyyy-MM-dd HH:mm:ss.SSS' to a TIMESTAMP read as UTC (table.local-time-zone is UTC).
    // REGEXP guards both casts, so a malformed value never reaches a failing CAST.
    valid = `(REGEXP(${f}, ${EPOCH_PATTERN}) OR REGEXP(${f}, ${ISO_PATTERN}))`;
    conv =
      `CASE WHEN REGEXP(${f}, ${EPOCH_PATTERN}) THEN TO_TIMESTAMP_LTZ(CAST(${f} AS BIGINT), 3) ` +
      `ELSE CAST(CAST(REPLACE(REPLACE(${f}, 'T', ' '), 'Z', '') AS TIMESTAMP(3)) AS TIMESTAMP_LTZ(3)) END`;
    note = `${field} holds text: epoch milliseconds or ISO-8601 read as UTC; offsets other than Z are not understood (such records are skipped)`;
  }
  const late = 'TO_TIMESTAMP_LTZ(0, 3)';
  const bad =
    onBadRecord === 'fail'
      ? `TO_TIMESTAMP_LTZ(CAST(CONCAT('bad event time in field ${field.replace(/'/g, "''")}: ', COALESCE(CAST(${f} AS STRING), 'missing')) AS BIGINT), 3)`
      : late;
  const otherwise = onBadRecord === 'fail' && header ? `WHEN ${header} THEN ${late} ELSE ${bad}` : `ELSE ${bad}`;
  return { expr: `CASE WHEN ${valid} THEN ${conv} ${otherwise} END`, valid, ...(note ? { note } : {}) };
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
