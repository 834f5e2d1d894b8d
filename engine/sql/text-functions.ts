/**
 * The string functions Nexmark's queries use beyond the basics: REGEXP_EXTRACT and SPLIT_INDEX,
 * with Flink's NULL rules (SqlFunctionUtils.regExpExtract / splitIndex): a NULL argument, no match,
 * a group or index out of range give NULL. A constant pattern is compiled (and checked) once, at
 * compile time. DATE_FORMAT and TO_TIMESTAMP_LTZ are in time-functions.ts.
 */
import type { Evaluator } from './types.ts';
import type { FunctionSpec } from './types.ts';
import { compileJavaRegex, type JavaRegex } from './java-regex.ts';
import { cached, constantOf, expectType, int, text } from './function-args.ts';

export const REGEXP_EXTRACT: FunctionSpec = {
  min: 2,
  max: 3,
  params: ['STRING', 'STRING', 'INTEGER'],
  signature: 'REGEXP_EXTRACT(s STRING, regex STRING[, group INT]) → STRING',
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

/**
 * Token `i` of Apache Commons' splitByWholeSeparatorPreserveAllTokens, which Flink's SPLIT_INDEX
 * calls (undefined past the last one). Found by walking the separators up to it: splitting the
 * whole string per row for one token was most of Nexmark q22's time (three SPLIT_INDEX per bid).
 */
export function tokenAt(s: string, sep: string, i: number): string | undefined {
  if (s === '') return undefined;
  if (sep === '') return s.split(/\s/)[i]; // Commons splits on each whitespace character
  let from = 0;
  for (let k = 0; k < i; k++) {
    const at = s.indexOf(sep, from);
    if (at < 0) return undefined;
    from = at + sep.length;
  }
  const end = s.indexOf(sep, from);
  return end < 0 ? s.slice(from) : s.slice(from, end);
}

export const SPLIT_INDEX: FunctionSpec = {
  min: 3,
  max: 3,
  params: ['STRING', 'ANY', 'INTEGER'],
  signature: 'SPLIT_INDEX(s STRING, separator STRING | INT, index INT) → STRING',
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
        return tokenAt(str, separator, i) ?? null;
      },
      type: 'STRING',
    };
  },
};
