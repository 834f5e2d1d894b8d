/**
 * Flink's regular-expression functions besides REGEXP_EXTRACT (text-functions.ts): REGEXP,
 * REGEXP_REPLACE, REGEXP_COUNT, REGEXP_INSTR and REGEXP_SUBSTR. Patterns are Java's, read by
 * java-regex.ts; a pattern that does not compile gives NULL, as Flink catches the exception.
 */
import type { FunctionSpec } from './types.ts';
import { compileJavaRegex, type JavaRegex } from './java-regex.ts';
import { cached, strict, text } from './function-args.ts';

const s = (v: unknown): string => text(v) ?? '';
const regexFor = cached((p: string): JavaRegex => compileJavaRegex(p));

/** A Java pattern as a global RegExp, or null when it does not compile. */
function globalRegex(p: string): RegExp | null {
  const r = regexFor(p);
  return r.ok ? new RegExp(r.regex.source, r.regex.flags + 'g') : null;
}

/** Every match of `re` in `str` (an empty match advances by one, as Matcher.find does). */
function allMatches(str: string, re: RegExp): RegExpExecArray[] {
  const out: RegExpExecArray[] = [];
  re.lastIndex = 0;
  for (let m = re.exec(str); m !== null; m = re.exec(str)) {
    out.push(m);
    if (m[0] === '') re.lastIndex++;
  }
  return out;
}

const twoStrings = (name: string, result: string): Pick<FunctionSpec, 'min' | 'max' | 'params' | 'signature'> => ({
  min: 2,
  max: 2,
  params: ['STRING', 'STRING'],
  signature: `${name}(s STRING, regex STRING) → ${result}`,
});

export const REGEX_FUNCTIONS: Record<string, FunctionSpec> = {
  REGEXP: strict({ ...twoStrings('REGEXP', 'BOOLEAN'), type: 'BOOLEAN' }, ([a, re]) => {
    const r = regexFor(s(re));
    return r.ok ? r.regex.test(s(a)) : null;
  }),
  REGEXP_REPLACE: strict(
    {
      min: 3,
      max: 3,
      params: ['STRING', 'STRING', 'STRING'],
      signature: 'REGEXP_REPLACE(s STRING, regex STRING, replacement STRING) → STRING',
      type: 'STRING',
    },
    ([a, re, rep]) => {
      const r = globalRegex(s(re));
      // Flink quotes the replacement (Matcher.quoteReplacement): `$1` is literal text, measured
      // on Flink 1.20. A function replacer keeps JavaScript's `$` patterns out too.
      const literal = s(rep);
      return r === null ? null : s(a).replace(r, () => literal);
    },
  ),
  REGEXP_COUNT: strict({ ...twoStrings('REGEXP_COUNT', 'INT'), type: 'BIGINT' }, ([a, re]) => {
    const r = globalRegex(s(re));
    return r === null ? null : allMatches(s(a), r).length;
  }),
  REGEXP_INSTR: strict({ ...twoStrings('REGEXP_INSTR', 'INT'), type: 'BIGINT' }, ([a, re]) => {
    const r = regexFor(s(re));
    if (!r.ok) return null;
    const m = r.regex.exec(s(a));
    return m === null ? 0 : m.index + 1;
  }),
  REGEXP_SUBSTR: strict({ ...twoStrings('REGEXP_SUBSTR', 'STRING'), type: 'STRING' }, ([a, re]) => {
    const r = regexFor(s(re));
    return r.ok ? (r.regex.exec(s(a))?.[0] ?? null) : null;
  }),
};
