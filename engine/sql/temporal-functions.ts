/**
 * Flink's deterministic temporal functions on Weir's TIMESTAMPs (UTC instants, see
 * time-functions.ts): EXTRACT and its shorthands (YEAR, QUARTER, MONTH, WEEK, DAYOFYEAR,
 * DAYOFMONTH, DAYOFWEEK, HOUR, MINUTE, SECOND), TIMESTAMPDIFF, TIMESTAMPADD, FROM_UNIXTIME,
 * UNIX_TIMESTAMP(text[, pattern]) and TO_TIMESTAMP(text[, pattern]). Time units arrive as string
 * literals: the parser turns `EXTRACT(DAY FROM ts)` into `EXTRACT('DAY', ts)` and
 * `TIMESTAMPDIFF(DAY, a, b)` into `TIMESTAMPDIFF('DAY', a, b)` (special-forms.ts).
 */
import type { Compiled, FunctionSpec } from './types.ts';
import { Decimal } from './decimal.ts';
import { compileDatePattern, type DatePattern } from './date-format.ts';
import { compileDateParser, type DateParser } from './date-parse.ts';
import { cached, constantOf, int, strict, text } from './function-args.ts';
import { epochMs } from './time-functions.ts';
import { toTimestamp } from './values.ts';

const DAY_MS = 86_400_000;

/** ISO-8601 week number and week-based year (Monday first, week 1 holds the first Thursday). */
function isoWeek(d: Date): { week: number; year: number } {
  const t = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
  const dow = t.getUTCDay() || 7;
  t.setUTCDate(t.getUTCDate() + 4 - dow); // the Thursday of this week
  const year = t.getUTCFullYear();
  return { week: Math.ceil(((t.getTime() - Date.UTC(year, 0, 1)) / DAY_MS + 1) / 7), year };
}

const dayOfYear = (d: Date): number => Math.floor((d.getTime() - Date.UTC(d.getUTCFullYear(), 0, 1)) / DAY_MS) + 1;

/** EXTRACT's units (Calcite's TimeUnitRange), each as a function of the UTC date. */
const PARTS: Record<string, (d: Date) => number> = {
  YEAR: (d) => d.getUTCFullYear(),
  QUARTER: (d) => Math.floor(d.getUTCMonth() / 3) + 1,
  MONTH: (d) => d.getUTCMonth() + 1,
  WEEK: (d) => isoWeek(d).week,
  DAY: (d) => d.getUTCDate(),
  HOUR: (d) => d.getUTCHours(),
  MINUTE: (d) => d.getUTCMinutes(),
  SECOND: (d) => d.getUTCSeconds(),
  MILLISECOND: (d) => d.getUTCSeconds() * 1000 + d.getUTCMilliseconds(),
  MICROSECOND: (d) => (d.getUTCSeconds() * 1000 + d.getUTCMilliseconds()) * 1000,
  DOW: (d) => d.getUTCDay() + 1,
  ISODOW: (d) => d.getUTCDay() || 7,
  DOY: dayOfYear,
  ISOYEAR: (d) => isoWeek(d).year,
  EPOCH: (d) => Math.floor(d.getTime() / 1000),
  DECADE: (d) => Math.floor(d.getUTCFullYear() / 10),
  CENTURY: (d) => Math.ceil(d.getUTCFullYear() / 100),
  MILLENNIUM: (d) => Math.ceil(d.getUTCFullYear() / 1000),
};

const msOf = (v: unknown): number | null => (v instanceof Decimal ? null : epochMs(v));

/** `YEAR(ts)` and the other shorthands: EXTRACT of one unit. */
function part(name: string, unit: string): FunctionSpec {
  const get = PARTS[unit];
  return strict(
    { min: 1, max: 1, params: ['TIMESTAMP'], signature: `${name}(ts TIMESTAMP) → BIGINT`, type: 'BIGINT' },
    ([v]) => {
      const ms = msOf(v);
      return ms === null ? null : get(new Date(ms));
    },
  );
}

/** A unit argument: a string literal naming one of `units` (the parser quotes the keyword). */
function unitCheck(units: readonly string[]): (args: Compiled[]) => string | null {
  return ([u]) => {
    const v = constantOf(u);
    return typeof v === 'string' && units.includes(v.toUpperCase())
      ? null
      : `the time unit (argument 1) must be one of ${units.join(', ')}`;
  };
}

const DIFF_MS: Record<string, number> = {
  SECOND: 1000,
  MINUTE: 60_000,
  HOUR: 3_600_000,
  DAY: DAY_MS,
  WEEK: 7 * DAY_MS,
};
const DIFF_MONTHS: Record<string, number> = { MONTH: 1, QUARTER: 3, YEAR: 12 };
const DIFF_UNITS = [...Object.keys(DIFF_MS), ...Object.keys(DIFF_MONTHS)];

/** Days since the epoch plus `months`, the day clamped to the month's end (DateTimeUtils.addMonths). */
function addMonthsToDay(day: number, months: number): number {
  const d = new Date(day * DAY_MS);
  const y = d.getUTCFullYear(),
    m = d.getUTCMonth() + months;
  const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return Date.UTC(y, m, Math.min(d.getUTCDate(), last)) / DAY_MS;
}

/** Flink's DateTimeUtils.subtractMonths(date0, date1) on day numbers: whole months from date1 to date0. */
function subtractMonthDays(date0: number, date1: number): number {
  if (date0 < date1) return -subtractMonthDays(date1, date0);
  let m = Math.floor((date0 - date1) / 31); // no month is longer than 31 days: never too high
  for (;;) {
    if (addMonthsToDay(date1, m) >= date0 || addMonthsToDay(date1, m + 1) > date0) return m;
    m++;
  }
}

/** Whole months from `a` to `b` (DateTimeUtils.subtractMonths(b, a) on timestamps). */
function monthsBetween(a: number, b: number): number {
  const msA = ((a % DAY_MS) + DAY_MS) % DAY_MS,
    msB = ((b % DAY_MS) + DAY_MS) % DAY_MS;
  const dayA = (a - msA) / DAY_MS,
    dayB = (b - msB) / DAY_MS;
  let x = subtractMonthDays(dayB, dayA);
  if (addMonthsToDay(dayA, x) === dayB && msB < msA) x--;
  return x;
}

function addMonths(ms: number, months: number): number {
  const d = new Date(ms);
  const y = d.getUTCFullYear(),
    m = d.getUTCMonth() + months;
  const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate(); // Jan 31 + 1 month = Feb 28/29
  const day = Math.min(d.getUTCDate(), last);
  return Date.UTC(y, m, day) + (ms - Date.UTC(y, d.getUTCMonth(), d.getUTCDate()));
}

const patternFor = cached((p: string): DatePattern | null => {
  try {
    return compileDatePattern(p);
  } catch {
    return null;
  }
});
const parserFor = cached((p: string): DateParser | string => {
  try {
    return compileDateParser(p);
  } catch (e) {
    return (e as Error).message;
  }
});
/** A constant pattern argument that the parser cannot read, described, or null. */
const parsePatternProblem = (a: Compiled | undefined): string | null => {
  const p = constantOf(a);
  const r = typeof p === 'string' ? parserFor(p) : null;
  return typeof r === 'string' ? r : null;
};
const DEFAULT_FORMAT = 'yyyy-MM-dd HH:mm:ss';
/** Flink's UNIX_TIMESTAMP for text it cannot parse: Long.MIN_VALUE (the nearest double here). */
const LONG_MIN = -9223372036854775808;

function parseWith(s: string, pattern: string): number | null {
  const parser = parserFor(pattern);
  return typeof parser === 'string' ? null : parser.parse(s);
}

export const TEMPORAL_FUNCTIONS: Record<string, FunctionSpec> = {
  YEAR: part('YEAR', 'YEAR'),
  QUARTER: part('QUARTER', 'QUARTER'),
  MONTH: part('MONTH', 'MONTH'),
  WEEK: part('WEEK', 'WEEK'),
  DAYOFYEAR: part('DAYOFYEAR', 'DOY'),
  DAYOFMONTH: part('DAYOFMONTH', 'DAY'),
  DAYOFWEEK: part('DAYOFWEEK', 'DOW'),
  HOUR: part('HOUR', 'HOUR'),
  MINUTE: part('MINUTE', 'MINUTE'),
  SECOND: part('SECOND', 'SECOND'),
  EXTRACT: {
    ...strict(
      {
        min: 2,
        max: 2,
        params: ['STRING', 'TIMESTAMP'],
        signature: 'EXTRACT(unit FROM ts TIMESTAMP) → BIGINT',
        type: 'BIGINT',
      },
      ([u, v]) => {
        const ms = msOf(v);
        return ms === null ? null : PARTS[String(u).toUpperCase()](new Date(ms));
      },
    ),
    check: unitCheck(Object.keys(PARTS)),
  },
  TIMESTAMPDIFF: {
    ...strict(
      {
        min: 3,
        max: 3,
        params: ['STRING', 'TIMESTAMP', 'TIMESTAMP'],
        signature: 'TIMESTAMPDIFF(unit, a TIMESTAMP, b TIMESTAMP) → INT',
        type: 'BIGINT',
      },
      ([u, a, b]) => {
        const x = msOf(a),
          y = msOf(b);
        if (x === null || y === null) return null;
        const unit = String(u).toUpperCase();
        const r = unit in DIFF_MS ? (y - x) / DIFF_MS[unit] : monthsBetween(x, y) / DIFF_MONTHS[unit];
        return Math.trunc(r) || 0;
      },
    ),
    check: unitCheck(DIFF_UNITS),
  },
  TIMESTAMPADD: {
    ...strict(
      {
        min: 3,
        max: 3,
        params: ['STRING', 'INTEGER', 'TIMESTAMP'],
        signature: 'TIMESTAMPADD(unit, n INT, ts TIMESTAMP) → TIMESTAMP',
        type: 'TIMESTAMP',
      },
      ([u, n, v]) => {
        const ms = msOf(v),
          k = int(n);
        if (ms === null || k === null) return null;
        const unit = String(u).toUpperCase();
        return toTimestamp(unit in DIFF_MS ? ms + k * DIFF_MS[unit] : addMonths(ms, k * DIFF_MONTHS[unit]));
      },
    ),
    check: unitCheck(DIFF_UNITS),
  },
  FROM_UNIXTIME: {
    ...strict(
      {
        min: 1,
        max: 2,
        params: ['NUMERIC', 'STRING'],
        signature: "FROM_UNIXTIME(seconds BIGINT[, pattern STRING = 'yyyy-MM-dd HH:mm:ss']) → STRING",
        type: 'STRING',
      },
      ([n, p]) => {
        const secs = int(n instanceof Decimal ? n.toNumber() : n);
        const pattern = patternFor(p === undefined ? DEFAULT_FORMAT : text(p)!);
        return secs === null || pattern === null ? null : pattern.format(secs * 1000);
      },
    ),
    check: ([, p]) => {
      const v = constantOf(p);
      if (typeof v !== 'string') return null;
      try {
        compileDatePattern(v);
        return null;
      } catch (e) {
        return (e as Error).message;
      }
    },
  },
  UNIX_TIMESTAMP: {
    ...strict(
      {
        min: 1,
        max: 2,
        params: ['STRING', 'STRING'],
        signature: "UNIX_TIMESTAMP(s STRING[, pattern STRING = 'yyyy-MM-dd HH:mm:ss']) → BIGINT",
        type: 'BIGINT',
      },
      ([s, p]) => {
        const ms = parseWith(text(s)!, p === undefined ? DEFAULT_FORMAT : text(p)!);
        return ms === null ? LONG_MIN : Math.floor(ms / 1000);
      },
    ),
    check: ([, p]) => parsePatternProblem(p),
  },
  TO_TIMESTAMP: {
    ...strict(
      {
        min: 1,
        max: 2,
        params: ['STRING', 'STRING'],
        signature: "TO_TIMESTAMP(s STRING[, pattern STRING = 'yyyy-MM-dd HH:mm:ss']) → TIMESTAMP",
        type: 'TIMESTAMP',
      },
      ([s, p]) => {
        const ms = parseWith(text(s)!, p === undefined ? DEFAULT_FORMAT : text(p)!);
        return ms === null ? null : toTimestamp(ms);
      },
    ),
    check: ([, p]) => parsePatternProblem(p),
  },
};
