/**
 * `topn.orderBy`: `price DESC, ts ASC`, each item an expression with an optional ASC (default) or
 * DESC. NULL sorts as the smallest value (Flink: ASC puts NULLs first, DESC last). Values that
 * cannot be compared (a string against a number) compare by their text, so the order is total.
 */
import { ExpressionError } from './errors.ts';
import { tokenize } from './lexer.ts';
import { compileProjectionDetailed } from './projection.ts';
import type { ColumnTypes, Row } from './types.ts';
import { compare } from './values.ts';

export interface OrderItem {
  expr: string;
  desc: boolean;
}

export interface CompiledOrderBy {
  items: OrderItem[];
  /** Columns read, in order of first appearance. */
  columns: string[];
  /** The sort values of a row (store them beside it: comparing then needs no evaluation). */
  valuesOf(row: Row): unknown[];
  /** Negative when values `a` come first. */
  compareValues(a: readonly unknown[], b: readonly unknown[]): number;
}

function compareTotal(a: unknown, b: unknown): number {
  const an = a === null || a === undefined;
  const bn = b === null || b === undefined;
  if (an || bn) return an && bn ? 0 : an ? -1 : 1;
  const c = compare(a, b);
  if (c !== null) return c;
  const sa = JSON.stringify(a),
    sb = JSON.stringify(b);
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

/**
 * With `types` (the input columns' static types) the items are type-checked too, and a column of
 * a type that cannot be ordered (ARRAY, MAP, ROW, MULTISET) is refused, as Flink's planner does.
 */
export function compileOrderBy(text: string, types?: ColumnTypes): CompiledOrderBy {
  if (typeof text !== 'string' || text.trim() === '') throw new ExpressionError('expected a column to order by', 1);
  const tokens = tokenize(text);
  // Split on top-level commas; a trailing ASC/DESC ident belongs to the item.
  const ranges: Array<[number, number]> = [];
  let depth = 0;
  let from = 0;
  tokens.forEach((t, k) => {
    if (t.text === '(') depth++;
    else if (t.text === ')') depth--;
    else if (t.text === ',' && depth === 0) {
      ranges.push([from, k]);
      from = k + 1;
    }
  });
  ranges.push([from, tokens.length]);
  const items: OrderItem[] = [];
  const columns: string[] = [];
  const readers: Array<(row: Row) => unknown> = [];
  for (const [a, b] of ranges) {
    if (a >= b) throw new ExpressionError('expected a column to order by', (tokens[a]?.start ?? text.length) + 1);
    let end = b;
    let desc = false;
    const last = tokens[b - 1];
    if (last.kind === 'ident' && (last.upper === 'ASC' || last.upper === 'DESC')) {
      desc = last.upper === 'DESC';
      end = b - 1;
      if (end === a) throw new ExpressionError(`expected a column before ${last.upper}`, last.start + 1);
    }
    const start = tokens[a].start;
    const exprText = text.slice(start, tokens[end - 1].end);
    // Padded: error columns count in the user's whole text.
    const p = compileProjectionDetailed(' '.repeat(start) + exprText, types);
    if (p.columns === null || p.columns.length !== 1) throw new ExpressionError("'*' cannot be ordered by", start + 1);
    const source = p.columns[0].sourceColumn;
    const composite = source === undefined ? undefined : types?.get(source)?.composite;
    if (composite !== undefined)
      throw new ExpressionError(
        `cannot order by '${source}': ${composite} is not a comparable type (order by a column of an atomic type, or an element of it)`,
        start + 1,
      );
    for (const c of p.referenced) if (!columns.includes(c)) columns.push(c);
    // The item's value itself: projecting a one-column row per record only to read it back cost an
    // object per row and item.
    readers.push(p.values[0]);
    items.push({ expr: exprText, desc });
  }
  const signs = items.map((i) => (i.desc ? -1 : 1));
  const n = items.length;
  return {
    items,
    columns,
    valuesOf(row) {
      const v = new Array<unknown>(n);
      for (let i = 0; i < n; i++) v[i] = readers[i](row) ?? null;
      return v;
    },
    compareValues(a, b) {
      for (let i = 0; i < n; i++) {
        const c = compareTotal(a[i], b[i]);
        if (c !== 0) return c * signs[i];
      }
      return 0;
    },
  };
}
