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
 * event time read as UTC midnight. Digits past the millisecond are dropped (Weir's TIMESTAMP holds
 * milliseconds); PostgreSQL's `infinity` and `-infinity` stay that text, and a year past
 * JavaScript's range (275760) is NULL.
 */
import type pg from 'pg';
import { toTimestamp } from '../../sql/values.ts';

const INT8 = 20;
const NUMERIC = 1700;
const DATE = 1082;
const TIMESTAMP = 1114;
const TIMESTAMPTZ = 1184;

/**
 * pg builds a date from its fields as local time; the same fields as UTC (a midnight that does not
 * exist locally moves the hour, never the day).
 */
function localFieldsAsUtc(d: Date): number {
  const utc = new Date(0);
  utc.setUTCFullYear(d.getFullYear(), d.getMonth(), d.getDate());
  utc.setUTCHours(d.getHours(), d.getMinutes(), d.getSeconds(), d.getMilliseconds());
  return utc.getTime();
}

/**
 * A zoneless timestamp is read from PostgreSQL's own text (`keepsText`): pg would build a local
 * Date, and a wall-clock time inside the process zone's daylight-saving gap (02:30 on a spring-forward
 * day) does not exist locally and comes out an hour off, however it is read back.
 */
export function keepsText(typeOid: number): boolean {
  return typeOid === TIMESTAMP;
}

/** A query's `types`: the client's parsers, but the text of the types `keepsText` names. */
export function typesKeepingText(client: pg.Client): pg.CustomTypesConfig {
  const parser = (oid: number, format?: string) =>
    keepsText(oid) ? (text: string) => text : client.getTypeParser(oid, format as 'text');
  return { getTypeParser: parser as pg.CustomTypesConfig['getTypeParser'] };
}

/** pgoutput's parsers for a relation's columns (kept for the tuples that follow it), likewise. */
export function keepTextOf(columns: ReadonlyArray<{ typeOid: number; parser: (text: string) => unknown }>): void {
  for (const c of columns) if (keepsText(c.typeOid)) c.parser = (text) => text;
}

/** Parses ISO-style output: the year may have more than 4 digits, ' BC' for years before 1. */
const ZONELESS = /^(\d{4,})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(\.\d+)?( BC)?$/;

function zonelessText(s: string): string | null {
  const m = ZONELESS.exec(s);
  if (!m) return null;
  const utc = new Date(0);
  const year = Number(m[1]);
  utc.setUTCFullYear(m[8] ? 1 - year : year, Number(m[2]) - 1, Number(m[3]));
  const ms = m[7] ? Math.floor(Number(m[7]) * 1000) : 0; // digits past the millisecond are dropped
  utc.setUTCHours(Number(m[4]), Number(m[5]), Number(m[6]), ms);
  return toTimestamp(utc.getTime());
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
      if (typeof v !== 'string') return v instanceof Date ? toTimestamp(localFieldsAsUtc(v)) : (infinite(v) ?? v);
      return v === 'infinity' || v === '-infinity' ? v : zonelessText(v);
    case TIMESTAMPTZ:
      return v instanceof Date ? toTimestamp(v.getTime()) : (infinite(v) ?? v);
    default:
      return v instanceof Date ? v.getTime() : v;
  }
}
