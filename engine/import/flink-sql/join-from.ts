/**
 * A FROM clause that joins two relations, read from the parse tree: `a AS L [LEFT|RIGHT|FULL
 * OUTER] JOIN b AS R ON ...` or the comma form `a AS L, b AS R` (an interval join's), each side a
 * table or a subquery (a window join's `(SELECT * FROM TABLE(TUMBLE(...))) AS L`). Conditions (ON,
 * WHERE) are split at their top-level ANDs, and equalities and BETWEENs are kept apart: Weir's
 * joins are keys (`L.a = R.b`) plus, for an interval join, one time bound.
 */
import { child, children, kind, posOf, textOf, type Ctx } from './tree.ts';
import { unquoteIdent } from './values.ts';
import type { Condition, JoinFrom, JoinSide, QueryShape } from './query-shape.ts';

type ReadQuery = (sql: string, query: Ctx) => QueryShape;

/** The join in a FROM clause's top TableExpression, or null when it is not a join. */
export function readJoinFrom(sql: string, top: Ctx, readQuery: ReadQuery): JoinFrom | null {
  const exprs = children(top, 'TableExpression');
  const refs = children(top, 'TableReference');
  let sides: Ctx[];
  if (exprs.length === 2) sides = exprs;
  else if (refs.length === 2) sides = refs;
  else return null;
  const keyword = terminals(top).join(' ').replace(/\s+/g, ' ').toUpperCase();
  const on = child(top, 'JoinCondition');
  const onExpr = on?.children?.find((c) => c.children);
  const nested = sides.some(
    (s) =>
      kind(s) === 'TableExpression' && children(s, 'TableExpression').length + children(s, 'TableReference').length > 1,
  );
  return {
    kind: joinKind(keyword, refs.length === 2),
    keyword,
    left: readSide(sql, sides[0], readQuery),
    right: readSide(sql, sides[1], readQuery),
    on: onExpr ? conjuncts(sql, onExpr) : [],
    nested,
    pos: posOf(top),
  };
}

function joinKind(keyword: string, comma: boolean): JoinFrom['kind'] {
  if (comma && keyword === ',') return 'comma';
  if (/^(INNER )?JOIN$/.test(keyword)) return 'inner';
  if (/^LEFT (OUTER )?JOIN$/.test(keyword)) return 'left';
  if (/^RIGHT (OUTER )?JOIN$/.test(keyword)) return 'right';
  if (/^FULL (OUTER )?JOIN$/.test(keyword)) return 'full';
  return 'other';
}

/** The keyword tokens of a context (JOIN, LEFT, ',', ...): its children that are not rules. */
function terminals(ctx: Ctx): string[] {
  return (ctx.children ?? []).filter((c) => !c.children).map((c) => (c as unknown as { getText(): string }).getText());
}

function readSide(sql: string, side: Ctx, readQuery: ReadQuery): JoinSide {
  const ref = kind(side) === 'TableReference' ? side : (child(side, 'TableReference') ?? side);
  const primary = child(ref, 'TablePrimary');
  const aliasCtx = child(ref, 'TableAlias');
  const alias = aliasCtx ? unquoteIdent(textOf(sql, aliasCtx).replace(/^AS\s+/i, '')) : null;
  const path = primary ? child(primary, 'TablePath') : undefined;
  const atom = primary ? child(primary, 'AtomExpressionTable') : undefined;
  const query = atom ? child(atom, 'QueryStatement') : undefined;
  return {
    alias,
    table: path && textOf(sql, path) === textOf(sql, primary!) ? unquoteIdent(textOf(sql, path)) : null,
    query: query ? readQuery(sql, query) : null,
    pos: posOf(side),
  };
}

/** A condition split at its top-level ANDs, each read as an equality, a BETWEEN, or neither. */
export function conjuncts(sql: string, expr: Ctx, out: Condition[] = []): Condition[] {
  if (kind(expr) === 'LogicalBinary' && terminals(expr).join(' ').toUpperCase() === 'AND') {
    for (const c of expr.children ?? []) if (c.children) conjuncts(sql, c, out);
    return out;
  }
  if (kind(expr) === 'Expression' && expr.children?.length === 1) return conjuncts(sql, expr.children[0], out);
  const cond: Condition = { text: textOf(sql, expr), pos: posOf(expr), eq: null, between: null };
  const cmp = kind(expr) === 'Predicated' ? child(expr, 'Comparison') : undefined;
  if (cmp && textOf(sql, child(cmp, 'ComparisonOperator') ?? cmp) === '=') {
    const [l, r] = (cmp.children ?? []).filter((c) => c.children && kind(c) !== 'ComparisonOperator');
    if (l && r) cond.eq = { left: textOf(sql, l), right: textOf(sql, r) };
  }
  const pred = kind(expr) === 'Predicated' ? child(expr, 'Predicate') : undefined;
  if (pred && /^BETWEEN\b/i.test(textOf(sql, pred))) {
    const subject = (expr.children ?? []).find((c) => c.children && c !== pred);
    const [low, high] = (pred.children ?? []).filter((c) => c.children);
    if (subject && low && high)
      cond.between = { subject: textOf(sql, subject), low: textOf(sql, low), high: textOf(sql, high) };
  }
  out.push(cond);
  return out;
}
