/**
 * Runtime value rules shared by the compiled closures. Values are what JSON and CSV rows hold:
 * number, string, boolean, null (a missing column reads as null). SQL NULL is JS null.
 *
 * Implicit coercions (rows from CSV carry strings): a numeric string compares and computes as a
 * number, 'true'/'false' act as booleans. A comparison between values that cannot be coerced to
 * one type is UNKNOWN (null), like a failed implicit cast.
 */

import { Decimal, decimalCompare, decimalFromInteger } from './decimal.ts';

const NUMERIC = /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/;

/** Number value of v, or null when v is NULL or not numeric. */
export function toNumber(v: unknown): number | null {
  if (typeof v === 'number') return Number.isNaN(v) ? null : v;
  if (typeof v === 'string') return NUMERIC.test(v) ? Number(v) : null;
  if (v instanceof Decimal) return v.toNumber();
  return null;
}

/** Boolean value of v for three-valued logic: true, false, or null (UNKNOWN). */
export function toBool(v: unknown): boolean | null {
  if (v === true || v === false) return v;
  if (typeof v === 'string') {
    const s = v.trim().toLowerCase();
    if (s === 'true') return true;
    if (s === 'false') return false;
  }
  return null;
}

/** SQL string value; NULL stays null. Booleans print as Flink does ('TRUE'/'FALSE'). */
export function toText(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  if (v instanceof Decimal) return v.toString(); // with its scale: CAST(1.50 AS STRING) = '1.50'
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/**
 * Three-way comparison: negative, 0, positive, or null when either side is NULL or the two
 * cannot be compared. Strings compare by UTF-16 code units (Java's String.compareTo).
 */
export function compare(a: unknown, b: unknown): number | null {
  if (a === null || a === undefined || b === null || b === undefined) return null;
  const ta = typeof a;
  const tb = typeof b;
  if (ta === 'number' && tb === 'number') {
    const x = a as number,
      y = b as number;
    return x < y ? -1 : x > y ? 1 : x === y ? 0 : null;
  }
  if (ta === 'string' && tb === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (a instanceof Decimal || b instanceof Decimal) return compareDecimal(a, b);
  if (ta === 'boolean' && tb === 'boolean') return (a ? 1 : 0) - (b ? 1 : 0);
  if (ta === 'number' || tb === 'number') {
    const x = toNumber(a),
      y = toNumber(b);
    if (x === null || y === null) return null;
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (ta === 'boolean' || tb === 'boolean') {
    const x = toBool(a),
      y = toBool(b);
    if (x === null || y === null) return null;
    return (x ? 1 : 0) - (y ? 1 : 0);
  }
  return null;
}

/**
 * ROUND with HALF_UP on the shortest decimal form of the double (what Flink gets through
 * BigDecimal.valueOf), so ROUND(1.005, 2) = 1.01 and ROUND(-2.5) = -3.
 */
export function roundHalfUp(x: number, digits: number): number {
  if (!Number.isFinite(x)) return x;
  const d = Math.trunc(digits);
  const sign = x < 0 ? -1 : 1;
  const abs = Math.abs(x);
  const s = String(abs);
  let r: number;
  if (s.includes('e')) {
    const f = 10 ** d;
    r = Math.floor(abs * f + 0.5) / f;
  } else {
    r = Number(`${Math.floor(Number(`${s}e${d}`) + 0.5)}e${-d}`);
  }
  return r === 0 ? 0 : sign * r;
}

/**
 * SUBSTRING(s FROM pos FOR len) as Flink computes it: 1-based; a negative pos counts from the
 * end; pos 0 acts as 1; a negative or zero len gives ''.
 */
export function substringSql(s: string, pos: number, len: number | null): string {
  const n = s.length;
  let start = pos > 0 ? pos - 1 : pos < 0 ? n + pos : 0;
  let end = len === null ? n : len <= 0 ? start : start + len;
  if (end > n) end = n;
  if (start < 0) start = 0;
  return start >= end ? '' : s.slice(start, end);
}

/**
 * Translates a LIKE pattern to an anchored RegExp. `%` is any sequence, `_` any one character;
 * the escape character (none unless ESCAPE is given, as in standard SQL) makes the next
 * `%`, `_` or itself literal. Returns null for an invalid pattern (escape before anything else).
 */
export function likeToRegExp(pattern: string, escape: string | null): RegExp | null {
  let re = '^';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (escape !== null && c === escape) {
      const next = pattern[i + 1];
      if (next === undefined || (next !== '%' && next !== '_' && next !== escape)) return null;
      re += escapeRegExp(next);
      i++;
    } else if (c === '%') re += '[\\s\\S]*';
    else if (c === '_') re += '[\\s\\S]';
    else re += escapeRegExp(c);
  }
  return new RegExp(`${re}$`);
}

function escapeRegExp(c: string): string {
  return /[\\^$.*+?()[\]{}|/-]/.test(c) ? `\\${c}` : c;
}

/**
 * TIMESTAMP values are ISO-8601 UTC strings with milliseconds (`2026-01-01T00:00:00.000Z`), the
 * same form as window_start/window_end. A number is epoch milliseconds; a string is read as
 * ISO-8601 or Flink's `yyyy-MM-dd HH:mm:ss[.SSS]` (taken as UTC). Unreadable input gives null.
 */
/**
 * Date-time text as Date.parse reads it in UTC: a date or a date-time without a zone is a
 * TIMESTAMP's wall clock, which Weir (as Flink for TIMESTAMP) reads as UTC; Date.parse alone would
 * read a zoneless date-time in the process's zone. Text with a zone is returned as it is.
 */
export function utcDateTimeText(s: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(s)) return `${s}T00:00:00Z`;
  if (/^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(s)) return `${s.replace(' ', 'T')}Z`;
  return s;
}

export function toTimestamp(v: unknown): string | null {
  let ms: number;
  if (typeof v === 'number') ms = v;
  else if (typeof v === 'string') ms = Date.parse(utcDateTimeText(v.trim()));
  else return null;
  if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15) return null;
  return new Date(ms).toISOString();
}

// At module scope: a closure made per call is re-created (and, under tsx, re-named) on every row.
function exact(v: unknown): Decimal | null {
  return v instanceof Decimal ? v : typeof v === 'number' && Number.isSafeInteger(v) ? decimalFromInteger(v) : null;
}

/** A DECIMAL against a DECIMAL or a whole number compares exactly; against a fraction, as doubles. */
function compareDecimal(a: unknown, b: unknown): number | null {
  const x = exact(a),
    y = exact(b);
  if (x !== null && y !== null) return decimalCompare(x, y);
  const n = toNumber(a),
    m = toNumber(b);
  if (n === null || m === null) return null;
  return n < m ? -1 : n > m ? 1 : 0;
}
