/**
 * The string functions Nexmark's queries use beyond the basics: REGEXP_EXTRACT, SPLIT_INDEX and
 * DATE_FORMAT, with Flink's NULL rules (SqlFunctionUtils.regExpExtract / splitIndex,
 * DateTimeUtils.formatTimestamp): a NULL argument, no match, a group or index out of range give
 * NULL. Patterns that are constants are compiled (and checked) once, at compile time.
 */
import type { Compiled, Evaluator, SqlType } from './types.ts';
import type { FunctionSpec } from './functions.ts';
import { Decimal } from './decimal.ts';
import { SqlRuntimeError } from './errors.ts';
import { toNumber, toText } from './values.ts';
import { compileJavaRegex, type JavaRegex } from './java-regex.ts';
import { compileDatePattern, type DatePattern } from './date-format.ts';

const text = (v: unknown): string | null => (typeof v === 'string' ? v : toText(v));
const int = (v: unknown): number | null => {
  const n = typeof v === 'number' ? v : toNumber(v);
  return n === null ? null : Math.trunc(n);
};

/** `what` must be of one of `types` when its static type is known. */
function expectType(arg: Compiled | undefined, types: SqlType[], what: string): string | null {
  if (!arg || arg.type === 'UNKNOWN' || types.includes(arg.type)) return null;
  return `${what} must be ${types.join(' or ')}, got ${arg.type}`;
}

/** A constant argument's value, or undefined when it varies per row. */
const constantOf = (a: Compiled | undefined): unknown => (a?.constant ? a.fn({}) : undefined);

/** Compiles a per-row pattern once per distinct text (patterns usually repeat). */
function cached<T>(compile: (p: string) => T): (p: string) => T {
  const cache = new Map<string, T>();
  return (p) => {
    let hit = cache.get(p);
    if (hit === undefined) {
      if (cache.size > 1000) cache.clear();
      hit = compile(p);
      cache.set(p, hit);
    }
    return hit;
  };
}

export const REGEXP_EXTRACT: FunctionSpec = {
  min: 2,
  max: 3,
  check: ([s, re, idx]) => {
    const problem =
      expectType(s, ['STRING'], 'the string (argument 1)') ??
      expectType(re, ['STRING'], 'the regular expression (argument 2)') ??
      expectType(idx, ['BIGINT'], 'the group index (argument 3)');
    if (problem) return problem;
    const p = constantOf(re);
    if (typeof p === 'string') {
      const r = compileJavaRegex(p);
      if (!r.ok) return r.error;
    }
    return null;
  },
  build: ([s, re, idx]) => {
    const sf = s.fn,
      rf = re.fn,
      idxf: Evaluator = idx ? idx.fn : () => 0;
    const fixed = typeof constantOf(re) === 'string' ? compileJavaRegex(constantOf(re) as string) : null;
    const regexFor = cached(compileJavaRegex);
    return {
      fn: (row) => {
        const str = text(sf(row));
        const pattern = text(rf(row));
        const group = int(idxf(row));
        if (str === null || pattern === null || group === null) return null;
        // Flink catches a bad pattern or group and gives NULL.
        const r: JavaRegex = fixed ?? regexFor(pattern);
        if (!r.ok || group < 0 || group > r.groups) return null;
        const m = r.regex.exec(str);
        return m?.[group] ?? null;
      },
      type: 'STRING',
    };
  },
};

/** Apache Commons' splitByWholeSeparatorPreserveAllTokens, which Flink's SPLIT_INDEX calls. */
function splitPreservingTokens(s: string, sep: string): string[] {
  if (s === '') return [];
  if (sep === '') return s.split(/\s/); // Commons splits on each whitespace character
  return s.split(sep);
}

export const SPLIT_INDEX: FunctionSpec = {
  min: 3,
  max: 3,
  check: ([s, sep, idx]) =>
    expectType(s, ['STRING'], 'the string (argument 1)') ??
    // Flink also takes the separator as a character code (SPLIT_INDEX(s, 47, 1) splits on '/').
    expectType(sep, ['STRING', 'BIGINT'], 'the separator (argument 2)') ??
    expectType(idx, ['BIGINT'], 'the index (argument 3)'),
  build: ([s, sep, idx]) => {
    const sf = s.fn,
      pf = sep.fn,
      xf = idx.fn;
    return {
      fn: (row) => {
        const str = text(sf(row));
        const p = pf(row);
        const separator = typeof p === 'number' ? String.fromCharCode(p) : text(p);
        const i = int(xf(row));
        if (str === null || separator === null || i === null || i < 0) return null;
        return splitPreservingTokens(str, separator)[i] ?? null;
      },
      type: 'STRING',
    };
  },
};

/** Epoch milliseconds of a TIMESTAMP value (ISO text), a `yyyy-MM-dd HH:mm:ss` text or a number. */
function epochMs(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v !== 'string') return null;
  let s = v.trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(s)) s += 'T00:00:00Z';
  else if (/^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(s)) s = `${s.replace(' ', 'T')}Z`;
  else if (/^-?\d+$/.test(s)) return Number(s);
  const ms = Date.parse(s);
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
