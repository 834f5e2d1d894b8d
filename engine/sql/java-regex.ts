/**
 * Java regular expressions (Flink's REGEXP_EXTRACT uses java.util.regex) run on JavaScript's
 * RegExp. The two agree on the common syntax: classes, groups, alternation, greedy and lazy
 * quantifiers, \d \w \s \b, lookaround, UTF-16 code units. What Java has and JavaScript reads
 * differently (an escape JavaScript would silently take as a plain letter, such as \A or \Q) is
 * rejected with a message instead of matching something else; leading inline flags (?i) (?s) (?m)
 * become RegExp flags. Left as it is: Java's `$` (without MULTILINE) also matches before a final
 * line terminator, JavaScript's only at the very end.
 */

/** Escapes Java knows that a non-unicode RegExp would read as the bare letter. */
const JAVA_ONLY_ESCAPES = /\\([AZzGQEpPhHRXK])/;

export type JavaRegex = { ok: true; regex: RegExp; groups: number } | { ok: false; error: string };

export function compileJavaRegex(pattern: string): JavaRegex {
  let body = pattern;
  let flags = '';
  const inline = /^\(\?([ims]+)\)/.exec(body);
  if (inline) {
    flags = [...new Set(inline[1])].join('');
    body = body.slice(inline[0].length);
  }
  const javaOnly = findJavaOnlyEscape(body);
  if (javaOnly)
    return { ok: false, error: `the regular expression '${pattern}' uses ${javaOnly}, which Weir does not support` };
  try {
    const regex = new RegExp(body, flags);
    // An empty alternative always matches: its match array has one slot per group.
    const groups = new RegExp(`${body}|`, flags).exec('')!.length - 1;
    return { ok: true, regex, groups };
  } catch (e) {
    return {
      ok: false,
      error: `invalid regular expression '${pattern}': ${(e as Error).message.replace(/^Invalid regular expression: /, '')}`,
    };
  }
}

/** The first Java-only escape outside a doubled backslash, e.g. `\A`. */
function findJavaOnlyEscape(body: string): string | null {
  for (let i = 0; i < body.length; i++) {
    if (body[i] !== '\\') continue;
    const m = JAVA_ONLY_ESCAPES.exec(body.slice(i, i + 2));
    if (m) return `\\${m[1]}`;
    i++; // skip the escaped character (so \\A is a backslash and an A)
  }
  return null;
}
