/**
 * A SELECT that groups (GROUP BY) or ranks (the Top-N's ROW_NUMBER) the rows of a join: Weir's
 * join nodes only pair rows, so the join becomes a subquery of its own (a derived table: its
 * conditions, and a select writing every column read after it), and the grouping or ranking reads
 * that subquery's columns: `A.category` is `category` there (`c0`, `c1`... when both inputs have a
 * `c`, as Flink names them).
 */
import { tokenize } from '../../sql/lexer.ts';
import type { JobBuilder } from './builder.ts';
import type { JoinFrom, SelectItem, SelectShape } from './query-shape.ts';
import { unquoteIdent } from './values.ts';
import { qualifiedRefs } from './qualifier.ts';

type OverJoin = SelectShape & { from: { join: JoinFrom } };

const SIMPLE = /^[A-Za-z_][A-Za-z0-9_]*$/;
const written = (c: string): string => (SIMPLE.test(c) ? c : `\`${c.replace(/`/g, '``')}\``);
const unquote = (t: { kind: string; text: string }): string =>
  t.kind === 'quoted' ? t.text.slice(1, -1).replace(/``/g, '`') : t.text;

/** `X.c` references (X one of the join's aliases) in `text`, with their spans. */
interface Ref {
  ref: string;
  alias: string;
  col: string;
  start: number;
  end: number;
}

function refsIn(text: string, aliases: string[]): Ref[] {
  return qualifiedRefs(text)
    .filter((r) => aliases.includes(r.alias))
    .map((r) => ({ ...r, ref: `${r.alias}.${r.col}` }));
}

/** Unqualified names in `text` that are columns (not functions, not after a dot). */
function bareIn(text: string, columns: string[]): string[] {
  let toks;
  try {
    toks = tokenize(text);
  } catch {
    return [];
  }
  return toks
    .filter(
      (t, k) =>
        (t.kind === 'ident' || t.kind === 'quoted') &&
        toks[k - 1]?.text !== '.' &&
        toks[k + 1]?.text !== '.' &&
        toks[k + 1]?.text !== '(' &&
        columns.includes(unquote(t)),
    )
    .map(unquote);
}

function rename(text: string, aliases: string[], names: Map<string, string>): string {
  let out = '';
  let pos = 0;
  for (const r of refsIn(text, aliases)) {
    const n = names.get(r.ref);
    if (n === undefined) continue;
    out += text.slice(pos, r.start) + written(n);
    pos = r.end;
  }
  return out + text.slice(pos);
}

/**
 * The SELECT over the join rewritten as the same SELECT over a subquery that is the join:
 * `kept` are items the join writes as they are (a Top-N's columns), the rest of the SELECT reads
 * the subquery's columns. The subquery is imported by the caller as a derived table.
 */
export function joinAsSubquery(b: JobBuilder, q: OverJoin, kept: SelectItem[]): SelectShape {
  const join = q.from.join;
  const aliases = [join.left, join.right].flatMap((s) => {
    const a = s.alias ?? s.table;
    return a === null ? [] : [a];
  });
  const names = new Map<string, string>();
  const inner: SelectItem[] = [];
  const taken: string[] = [];
  const own = (want: string): string => {
    let out = want;
    for (let n = 0; taken.includes(out); n++) out = `${want}${n}`;
    taken.push(out);
    return out;
  };
  for (const item of kept) {
    const star = /^(`(?:[^`]|``)*`|[A-Za-z_][A-Za-z0-9_$]*)\.\*$/.exec(item.expr.trim());
    const side = star ? [join.left, join.right].find((s) => (s.alias ?? s.table) === unquoteIdent(star[1])) : undefined;
    const rel = side?.table ? b.relations.get(side.table) : undefined;
    if (star && rel) for (const c of rel.columns) names.set(`${unquoteIdent(star[1])}.${c}`, own(c));
    const ref = refsIn(item.expr, aliases);
    const plain = ref.length === 1 && ref[0].start === 0 && ref[0].end === item.expr.trim().length;
    if (plain) names.set(ref[0].ref, own(item.alias ?? ref[0].col));
    else if (!star && item.alias !== null) own(item.alias);
    inner.push(item);
  }
  const rest = q.items.filter((i) => !kept.includes(i));
  const texts = [...rest.map((i) => i.text), ...(q.groupBy ?? []).map((g) => ('column' in g ? g.column : ''))];
  for (const r of texts.flatMap((t) => refsIn(t, aliases))) {
    if (names.has(r.ref)) continue;
    const out = own(r.col);
    names.set(r.ref, out);
    const expr = `${written(r.alias)}.${written(r.col)}`;
    inner.push({
      text: `${expr} AS ${written(out)}`,
      expr,
      alias: out,
      column: null,
      pos: q.pos,
      ctx: null,
      over: null,
    });
  }
  // A bare column of one input (`GROUP BY category`): the subquery writes it under its own name.
  const sideColumns = [join.left, join.right].flatMap((s) =>
    s.table ? (b.relations.get(s.table)?.columns ?? []) : [],
  );
  for (const c of texts.flatMap((t) => bareIn(t, sideColumns))) {
    if (taken.includes(c)) continue;
    own(c);
    inner.push({ text: written(c), expr: written(c), alias: null, column: c, pos: q.pos, ctx: null, over: null });
  }
  const subquery: SelectShape = { ...q, items: inner, star: false, groupBy: null, unsupported: [] };
  const r = (t: string): string => rename(t, aliases, names);
  return {
    ...q,
    items: rest.map((i) => ({
      ...i,
      text: r(i.text),
      expr: r(i.expr),
      column: i.column === null ? null : (names.get(i.column) ?? i.column),
      ctx: r(i.text) === i.text ? i.ctx : null,
      over: i.over && {
        ...i.over,
        partitionBy: i.over.partitionBy.map((p) => names.get(p) ?? p),
        orderBy: r(i.over.orderBy),
      },
    })),
    star: kept.length > 0,
    from: { subquery, alias: null, pos: join.pos },
    where: null,
    conditions: [],
    groupBy: q.groupBy?.map((g) => ('column' in g ? { column: names.get(g.column) ?? g.column } : g)) ?? null,
  };
}
