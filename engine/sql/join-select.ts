/**
 * The `select` of a two-input node: columns named `L.x` (left input) and `R.x` (right input), as
 * in `L.user, L.amount, R.country AS country`. The expression compiler does not read qualified
 * names, so `L.x` is rewritten to the plain identifier `L$x` of the same length (and `` L.`a b` ``
 * to `` `L$a b` ``): every error column still points into the user's text. The projection reads a
 * combined row holding the referenced columns under those names.
 *
 * Output names follow Flink: the alias, else the column's own name without its prefix
 * (`L.user` -> `user`), else `EXPR$i`. Two outputs with one name are an error.
 */
import { tokenize } from './lexer.ts';
import { ExpressionError } from './errors.ts';
import { compileProjectionDetailed } from './projection.ts';
import type { ColumnType, ColumnTypes, Row } from './types.ts';

export type JoinSide = 'L' | 'R';

export interface JoinColumnRef {
  side: JoinSide;
  column: string;
}

export interface CompiledJoinSelect {
  /** Output column names, in order. */
  columns: string[];
  /** Their static types, in the same order (UNKNOWN where the sides' types do not tell). */
  types: ColumnType[];
  /** Input columns read, per side, in order of first appearance. */
  referenced: JoinColumnRef[];
  /** `extra` holds plain columns the select may read (a window join's window_start/window_end). */
  project(left: Row | null, right: Row | null, extra?: Row): Row;
}

/** Rewrites `L.x` / `R.x`; throws for a column without a prefix. */
export function rewriteJoinRefs(text: string): string {
  if (typeof text !== 'string')
    throw new ExpressionError(`expected SQL text, got ${text === null ? 'null' : typeof text}`, 1);
  const tokens = tokenize(text);
  let out = text;
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k];
    const dot = tokens[k + 1];
    const col = tokens[k + 2];
    const prefixed =
      t.kind === 'ident' &&
      (t.text === 'L' || t.text === 'R') &&
      dot?.text === '.' &&
      dot.start === t.end &&
      col &&
      col.start === dot.end &&
      (col.kind === 'ident' || col.kind === 'quoted');
    if (prefixed) {
      const replacement =
        col.kind === 'ident' ? `${t.text}$${col.text}` : `${col.text[0]}${t.text}$${col.text.slice(1)}`;
      out = out.slice(0, t.start) + replacement + out.slice(col.end);
      k += 2;
      continue;
    }
    if (t.kind === 'ident' && dot?.text === '.' && col && (col.kind === 'ident' || col.kind === 'quoted')) {
      throw new ExpressionError(`unknown input '${t.text}': name columns L.x (left) or R.x (right)`, t.start + 1);
    }
  }
  return out;
}

/** `L$x`/`R$x` typed as their side's `x`; a window join's bounds are TIMESTAMPs, as a window's. */
function sidedTypes(left: ColumnTypes, right: ColumnTypes, windowColumns = false): ColumnTypes {
  const out = new Map<string, ColumnType>();
  if (windowColumns) for (const w of ['window_start', 'window_end']) out.set(w, { type: 'TIMESTAMP' });
  for (const [n, t] of left) out.set(`L$${n}`, t);
  for (const [n, t] of right) out.set(`R$${n}`, t);
  return out;
}

function refOf(name: string): JoinColumnRef | null {
  return name.startsWith('L$') || name.startsWith('R$') ? { side: name[0] as JoinSide, column: name.slice(2) } : null;
}

/**
 * `extra.types`: the static types of each side's columns, so the select is type-checked as any
 * select list (a join's inputs are typed apart, so `L.x` and `R.x` may differ).
 */
export function compileJoinSelect(
  text: string,
  extra: { windowColumns?: boolean; types?: { left: ColumnTypes; right: ColumnTypes } } = {},
): CompiledJoinSelect {
  const rewritten = rewriteJoinRefs(text);
  const types = extra.types ? sidedTypes(extra.types.left, extra.types.right, extra.windowColumns) : undefined;
  const p = compileProjectionDetailed(rewritten, types);
  if (p.columns === null) {
    throw new ExpressionError(
      "'*' is not allowed in a join's select: name the columns (L.x, R.y)",
      rewritten.indexOf('*') + 1,
    );
  }
  const plain = new Set(extra.windowColumns ? ['window_start', 'window_end'] : []);
  const referenced: JoinColumnRef[] = [];
  const internal: string[] = [];
  for (const name of p.referenced) {
    const ref = refOf(name);
    if (ref === null && !plain.has(name)) {
      const m = new RegExp(`(^|[^\\w$.\`])${name.replace(/[$]/g, '\\$')}\\b`).exec(rewritten);
      const at = m ? m.index + m[1].length : 0;
      throw new ExpressionError(`column '${name}' needs an input prefix: L.${name} or R.${name}`, at + 1);
    }
    if (ref) {
      referenced.push(ref);
      internal.push(name);
    }
  }
  const columns = p.columns.map((c) => {
    if (c.name !== c.sourceColumn) return c.name;
    return refOf(c.name)?.column ?? c.name;
  });
  const seen = new Set<string>();
  columns.forEach((c, i) => {
    if (seen.has(c))
      throw new ExpressionError(
        `duplicate column name '${c}': give one an alias (... AS other_name)`,
        rewritten.indexOf(p.columns![i].expr) + 1,
      );
    seen.add(c);
  });
  const outTypes: ColumnType[] = p.columns.map((c) => {
    const same = c.sourceColumn !== undefined ? types?.get(c.sourceColumn) : undefined;
    if (same) return same;
    const t: ColumnType = { type: c.type ?? 'UNKNOWN' };
    if (c.precision !== undefined) {
      t.precision = c.precision;
      t.scale = c.scale;
    }
    return t;
  });
  const n = columns.length;
  // Each output column straight from its evaluator (what p.project would store under its name):
  // no projected row in between, one object less per joined row.
  const values = p.values;
  return {
    columns,
    types: outTypes,
    referenced,
    project(left, right, extra) {
      const row: Row = {};
      // Copied property by property: adding columns to a `{ ...extra }` clone is slow in V8.
      if (extra) for (const k in extra) row[k] = extra[k];
      for (let i = 0; i < internal.length; i++) {
        const r = referenced[i];
        const src = r.side === 'L' ? left : right;
        row[internal[i]] = src === null ? null : (src[r.column] ?? null);
      }
      const out: Row = {};
      for (let i = 0; i < n; i++) out[columns[i]] = values[i](row);
      return out;
    },
  };
}
