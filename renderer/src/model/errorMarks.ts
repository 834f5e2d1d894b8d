/**
 * Which characters of an expression field to underline: the token at the compiler's error column
 * (a syntax or type error), and every use of a name the validator's message quotes (an unknown
 * column `'usr'`, a function `'UPPER'` applied to the wrong types). Ranges are [start, end) in the
 * text, sorted and never overlapping. Quoted strings are never marked: `'usr'` inside a literal is
 * not a column.
 */
import type { HighlightToken } from './highlight.ts';

export type Range = readonly [number, number];

/** The names a validator message is about, with what they are. */
export function quotedNames(message: string): string[] {
  const out: string[] = [];
  const unknown = /unknown column '([^']+)'/g;
  for (let m = unknown.exec(message); m; m = unknown.exec(message)) out.push(m[1]);
  const apply = /Cannot apply '([^']+)'/.exec(message);
  if (apply) out.push(apply[1]);
  const ambiguous = /ambiguous column '([^']+)'/i.exec(message);
  if (ambiguous) out.push(ambiguous[1]);
  return out;
}

function merge(ranges: Range[]): Range[] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: Array<[number, number]> = [];
  for (const [s, e] of sorted) {
    const last = out[out.length - 1];
    if (last && s <= last[1]) last[1] = Math.max(last[1], e);
    else out.push([s, e]);
  }
  return out;
}

/**
 * `column`: the compiler's 1-based error column, or null. `message`: the validator's message for
 * the field, or null: the column it gives is marked, else the names it quotes. A name is matched as a whole identifier, case-insensitively for functions
 * and operators, exactly for columns (Flink's columns are case-sensitive).
 */
export function errorRanges(tokens: readonly HighlightToken[], column: number | null, message: string | null): Range[] {
  const ranges: Range[] = [];
  // A validator message that gives its column ("... (column 7)") marks that token, as precise as
  // the compiler's own; one without (an unknown column) marks every use of the name it quotes.
  const at = message ? /\(column (\d+)\)/.exec(message) : null;
  if (column === null && at) column = Number(at[1]);
  const names = message && !at ? quotedNames(message) : [];
  if (column !== null && tokens.length > 0) {
    const end = tokens[tokens.length - 1].start + tokens[tokens.length - 1].text.length;
    const at = Math.min(Math.max(0, column - 1), end - 1);
    const t = tokens.find((x) => at >= x.start && at < x.start + x.text.length);
    // Whitespace has no word to mark: the character itself shows where the parser stopped.
    if (t && t.kind !== 'plain') ranges.push([t.start, t.start + t.text.length]);
    else ranges.push([at, at + 1]);
  }
  for (const name of names) {
    const isColumn = message!.includes(`column '${name}'`);
    for (const t of tokens) {
      if (t.kind === 'string') continue;
      const text = t.kind === 'ident' && t.text.startsWith('`') ? t.text.replace(/^`|`$/g, '') : t.text;
      if (isColumn ? text === name : text.toUpperCase() === name.toUpperCase())
        ranges.push([t.start, t.start + t.text.length]);
    }
  }
  return merge(ranges);
}

/** A token cut at range edges: each piece says whether it is marked. */
export function splitToken(t: HighlightToken, ranges: readonly Range[]): Array<{ text: string; marked: boolean }> {
  const end = t.start + t.text.length;
  const cuts = new Set<number>([t.start, end]);
  for (const [s, e] of ranges) {
    if (s > t.start && s < end) cuts.add(s);
    if (e > t.start && e < end) cuts.add(e);
  }
  const points = [...cuts].sort((a, b) => a - b);
  const out: Array<{ text: string; marked: boolean }> = [];
  for (let i = 0; i + 1 < points.length; i++) {
    const [a, b] = [points[i], points[i + 1]];
    out.push({ text: t.text.slice(a - t.start, b - t.start), marked: ranges.some(([s, e]) => a >= s && b <= e) });
  }
  return out;
}
