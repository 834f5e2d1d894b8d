/**
 * Time functions: DATE_FORMAT (Flink's DateTimeUtils.formatTimestamp: DateTimeFormatter letters,
 * date-format.ts) and TO_TIMESTAMP_LTZ(epoch, precision). Weir's TIMESTAMP values are UTC instants
 * (ISO-8601 text), so both read and format in UTC: Flink does the same for a TIMESTAMP without time
 * zone, and for TIMESTAMP_LTZ in a session zone of UTC, which every exported script sets.
 */
import type { FunctionSpec } from './types.ts';
import { Decimal } from './decimal.ts';
import { SqlRuntimeError } from './errors.ts';
import { toTimestamp, utcDateTimeText } from './values.ts';
import { compileDatePattern, type DatePattern } from './date-format.ts';
import { cached, constantOf, expectType, int, text } from './function-args.ts';

/** Epoch milliseconds of a TIMESTAMP value (ISO text), a `yyyy-MM-dd HH:mm:ss` text or a number. */
export function epochMs(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v !== 'string') return null;
  const s = v.trim();
  if (/^-?\d+$/.test(s)) return Number(s);
  const ms = Date.parse(utcDateTimeText(s));
  return Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? ms : null;
}

function datePattern(p: string): DatePattern | string {
  try {
    return compileDatePattern(p);
  } catch (e) {
    return (e as Error).message;
  }
}

export const DATE_FORMAT: FunctionSpec = {
  min: 2,
  max: 2,
  params: ['ANY', 'STRING'],
  signature: 'DATE_FORMAT(ts TIMESTAMP | STRING, pattern STRING) → STRING',
  check: ([ts, fmt]) => {
    const problem =
      expectType(ts, ['TIMESTAMP', 'STRING', 'BIGINT'], 'the time (argument 1)') ??
      expectType(fmt, ['STRING'], 'the pattern (argument 2)');
    if (problem) return problem;
    const p = constantOf(fmt);
    if (typeof p === 'string') {
      const compiled = datePattern(p);
      if (typeof compiled === 'string') return compiled;
    }
    return null;
  },
  build: ([ts, fmt]) => {
    const tf = ts.fn,
      ff = fmt.fn;
    const c = constantOf(fmt);
    const fixed = typeof c === 'string' ? (datePattern(c) as DatePattern) : null;
    const patternFor = cached(datePattern);
    return {
      fn: (row) => {
        const v = tf(row);
        const ms = v instanceof Decimal ? null : epochMs(v);
        const p = text(ff(row));
        if (ms === null || p === null) return null;
        const pattern = fixed ?? patternFor(p);
        // Flink fails the job on a bad pattern (DateTimeFormatter.ofPattern throws).
        if (typeof pattern === 'string') throw new SqlRuntimeError(`DATE_FORMAT: ${pattern}`);
        return pattern.format(ms);
      },
      type: 'STRING',
    };
  },
};

/** TO_TIMESTAMP_LTZ(numeric, precision): epoch seconds (precision 0) or milliseconds (3) as a TIMESTAMP. */
export const TO_TIMESTAMP_LTZ: FunctionSpec = {
  min: 2,
  max: 2,
  params: ['NUMERIC', 'INTEGER'],
  signature: 'TO_TIMESTAMP_LTZ(epoch NUMERIC, precision 0 | 3) → TIMESTAMP_LTZ(3)',
  check: ([n, p]) => {
    const problem = expectType(n, ['BIGINT', 'DECIMAL', 'DOUBLE'], 'the epoch (argument 1)');
    if (problem) return problem;
    const precision = constantOf(p);
    // Flink's own message: only seconds or milliseconds.
    return precision === 0 || precision === 3
      ? null
      : 'the precision (argument 2) must be the literal 0 (epoch seconds) or 3 (epoch milliseconds)';
  },
  build: ([n, p]) => {
    const nf = n.fn;
    const scale = constantOf(p) === 0 ? 1000 : 1;
    return {
      fn: (row) => {
        const v = nf(row);
        const x = v instanceof Decimal ? v.toNumber() : typeof v === 'number' ? v : int(v);
        return x === null ? null : toTimestamp(Math.floor(x * scale));
      },
      type: 'TIMESTAMP',
    };
  },
};
