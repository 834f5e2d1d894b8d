/**
 * A SELECT over one table with an alias (`FROM bid B ... GROUP BY B.bidder`): Weir's single-input
 * nodes name columns bare, so `B.x` is read as `x` everywhere in the shape (items, WHERE, GROUP BY
 * and a group window's time column). Text inside quotes is left alone.
 */
import { tokenize } from '../../sql/lexer.ts';
import type { SelectShape } from './query-shape.ts';
import { unquoteIdent } from './values.ts';

/** `text` without the `alias.` in front of its column references. */
export function stripQualifier(text: string, alias: string): string {
  let toks;
  try {
    toks = tokenize(text);
  } catch {
    return text;
  }
  let out = '';
  let pos = 0;
  for (let k = 0; k + 2 < toks.length + 1; k++) {
    const t = toks[k];
    const name = t.kind === 'quoted' ? t.text.slice(1, -1) : t.text;
    if (
      (t.kind === 'ident' || t.kind === 'quoted') &&
      name === alias &&
      toks[k + 1]?.text === '.' &&
      toks[k - 1]?.text !== '.'
    ) {
      out += text.slice(pos, t.start);
      pos = toks[k + 1].end;
    }
  }
  return out + text.slice(pos);
}

/** A column reference `X.c` in a text: its qualifier and column (unquoted) and its span. */
export interface QualifiedRef {
  alias: string;
  col: string;
  /** The qualifier's token as written (`B`, `` `B` ``). */
  aliasText: string;
  start: number;
  end: number;
}

/** Every `X.c` in `text` (not the `b.c` of `a.b.c`; nothing inside quotes); none if it does not tokenize. */
export function qualifiedRefs(text: string): QualifiedRef[] {
  let toks;
  try {
    toks = tokenize(text);
  } catch {
    return []; // not SQL Weir reads: the node's validation reports it
  }
  const out: QualifiedRef[] = [];
  for (let k = 0; k + 2 < toks.length; k++) {
    const [t, dot, col] = [toks[k], toks[k + 1], toks[k + 2]];
    if (t.kind !== 'ident' && t.kind !== 'quoted') continue;
    if (dot.text !== '.' || toks[k - 1]?.text === '.' || (col.kind !== 'ident' && col.kind !== 'quoted')) continue;
    out.push({ alias: unquote(t), col: unquote(col), aliasText: t.text, start: t.start, end: col.end });
  }
  return out;
}

const unquote = (t: { kind: string; text: string }): string =>
  t.kind === 'quoted' ? t.text.slice(1, -1).replace(/``/g, '`') : t.text;

export function unqualified(q: SelectShape, alias: string): SelectShape {
  const s = (t: string): string => stripQualifier(t, alias);
  return {
    ...q,
    items: q.items.map((i) => ({
      ...i,
      text: s(i.text),
      expr: s(i.expr),
      column: i.column === null ? null : unquoteIdent(s(i.column)),
    })),
    where: q.where === null ? null : s(q.where),
    conditions: q.conditions.map((c) => ({
      ...c,
      text: s(c.text),
      eq: c.eq ? { left: s(c.eq.left), right: s(c.eq.right) } : null,
      between: c.between ? { subject: s(c.between.subject), low: s(c.between.low), high: s(c.between.high) } : null,
    })),
    groupBy:
      q.groupBy?.map((g) =>
        'column' in g
          ? { column: s(g.column) }
          : 'window' in g
            ? { window: { ...g.window, timeCol: s(g.window.timeCol) } }
            : { other: s(g.other) },
      ) ?? null,
  };
}
