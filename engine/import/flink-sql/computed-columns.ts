/**
 * Computed columns of a hand-written source table (`dateTime AS TO_TIMESTAMP_LTZ(dateTime_ms, 3)`):
 * Weir's sources write their physical columns only, so a query that reads a computed column gets
 * its expression in its place (`dateTime` -> `TO_TIMESTAMP_LTZ(dateTime_ms, 3)`, and as a select
 * item `... AS dateTime`). The export's own computed `rowtime` is not one of them: Weir keeps event
 * time beside the row, and the importer drops the export's rowtime items (tables.ts sets `computed`
 * only for tables without the export's origin comment).
 */
import { tokenize, type Token } from '../../sql/lexer.ts';
import type { Relation } from './builder.ts';

function tokens(text: string): Token[] | null {
  try {
    return tokenize(text);
  } catch {
    return null; // not SQL Weir reads: left as written, the node's validation reports it
  }
}

const name = (t: Token): string => (t.kind === 'quoted' ? t.text.slice(1, -1).replace(/``/g, '`') : t.text);

/**
 * `text` with every bare reference to a computed column of `rel` replaced by its expression in
 * parentheses (a column after a dot belongs to another relation; a name before `(` is a function).
 * `qualifier`: only `qualifier.col` references (a join side's), replaced with the expression's
 * own columns qualified the same way.
 */
export function inlineComputed(text: string, rel: Relation, qualifier?: string): string {
  const computed = rel.computed;
  if (!computed || Object.keys(computed).length === 0) return text;
  const toks = tokens(text);
  if (!toks) return text;
  let out = '';
  let pos = 0;
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k];
    if (t.kind !== 'ident' && t.kind !== 'quoted') continue;
    const expr = computed[name(t)];
    if (expr === undefined || toks[k + 1]?.text === '(') continue;
    const dotted = toks[k - 1]?.text === '.';
    if (qualifier === undefined ? dotted : !(dotted && toks[k - 2] && name(toks[k - 2]) === qualifier)) continue;
    const start = qualifier === undefined ? t.start : toks[k - 2].start;
    const inner = qualifier === undefined ? expr : qualify(expr, rel.columns, qualifier);
    out += `${text.slice(pos, start)}(${inner})`;
    pos = t.end;
  }
  return out + text.slice(pos);
}

/** `expr` with its references to `columns` written `q.col`. */
function qualify(expr: string, columns: string[], q: string): string {
  const toks = tokens(expr);
  if (!toks) return expr;
  let out = '';
  let pos = 0;
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k];
    if ((t.kind === 'ident' || t.kind === 'quoted') && columns.includes(name(t)) && toks[k - 1]?.text !== '.') {
      out += `${expr.slice(pos, t.start)}${q}.${t.text}`;
      pos = t.end;
    }
  }
  return out + expr.slice(pos);
}

/** Whether the select item is a bare computed column (`dateTime`): it needs `AS dateTime` once inlined. */
export function isComputedColumn(column: string | null, rel: Relation): boolean {
  return column !== null && rel.computed?.[column] !== undefined;
}

/** Whether `text` mentions the column `name` (bare or in backquotes, not as part of a longer name). */
export function mentions(text: string, name: string): boolean {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^A-Za-z0-9_$])\`?${escaped}\`?($|[^A-Za-z0-9_$])`).test(text);
}
