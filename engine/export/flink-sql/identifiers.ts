import { FLINK_KEYWORDS } from './reserved-words.ts';

/**
 * Identifier and literal spelling for Flink SQL. Identifiers are case-sensitive in Flink and
 * quoted with backticks; we quote only where needed (a keyword or anything beyond [A-Za-z0-9_]) so
 * that the script stays readable.
 */
const PLAIN = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function needsQuoting(name: string): boolean {
  return !PLAIN.test(name) || FLINK_KEYWORDS.has(name.toUpperCase());
}

export function quoteIdent(name: string): string {
  return needsQuoting(name) ? '`' + name.replace(/`/g, '``') + '`' : name;
}

/** A single-quoted SQL string literal. */
export function sqlString(text: string): string {
  return "'" + text.replace(/'/g, "''") + "'";
}

/** The name written inside backticks (or a plain name) as it is meant, without quotes. */
export function unquoteIdent(text: string): string {
  const t = text.trim();
  if (t.length >= 2 && t.startsWith('`') && t.endsWith('`')) return t.slice(1, -1).replace(/``/g, '`');
  return t;
}

/** `SET 'key' = 'value';` */
export function setStatement(key: string, value: string | number | boolean): string {
  return `SET ${sqlString(key)} = ${sqlString(String(value))};`;
}

/** A `WITH (...)` option list, one option a line, in the order given. */
export function withOptions(options: Array<[string, string]>, indent = '  '): string {
  return 'WITH (\n' + options.map(([k, v]) => `${indent}${sqlString(k)} = ${sqlString(v)}`).join(',\n') + '\n)';
}

/** Text for a `--` comment: one line, no line breaks smuggled in from user names. */
export function commentText(text: string): string {
  return text.replace(/[\r\n]+/g, ' ');
}
