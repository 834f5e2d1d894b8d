/**
 * The shape of a SELECT, read from the parse tree: its items (text as written, alias, bare column),
 * its FROM (a table, or a window table function TUMBLE/HOP/CUMULATE/SESSION), WHERE and GROUP BY
 * (columns, or a group window SESSION(...)/HOP(...)/TUMBLE(...)), or a UNION ALL of such SELECTs.
 */
import { child, children, find, findAll, kind, posOf, textOf, type Ctx } from './tree.ts';
import { intervalMs, unquoteIdent } from './values.ts';
import { conjuncts, readJoinFrom } from './join-from.ts';
import type { QueryShape, SelectItem, SelectShape, WindowCall } from './query-shape.ts';
import { unqualified } from './qualifier.ts';

export function readQuery(sql: string, query: Ctx): QueryShape {
  const inner = children(query, 'QueryStatement');
  if (inner.length >= 2) {
    const text = textOf(sql, query);
    return {
      kind: 'union',
      pos: posOf(query),
      branches: inner.map((q) => readQuery(sql, q)),
      all: /\bUNION\s+ALL\b/i.test(text),
    };
  }
  if (inner.length === 1 && !child(query, 'SelectStatement')) return readQuery(sql, inner[0]);
  const select = child(query, 'SelectStatement');
  if (!select) return { kind: 'other', pos: posOf(query), text: textOf(sql, query) };
  return readSelect(sql, select);
}

function readSelect(sql: string, select: Ctx): SelectShape {
  const unsupported: SelectShape['unsupported'] = [];
  const items: SelectItem[] = [];
  let star = false;
  const list = find(child(select, 'SelectClause') ?? select, 'SelectList');
  for (const item of list?.children ?? []) {
    if (!item.children) {
      if (textOf(sql, item) === '*' || (item as unknown as { getText?: () => string }).getText?.() === '*') star = true;
      continue;
    }
    const k = kind(item);
    if (k !== 'ColumnProjectItem') {
      if (textOf(sql, item).trim() === '*') star = true;
      continue;
    }
    const aliasCtx = child(item, 'ColumnAlias');
    const exprCtx = (item.children ?? []).find((c) => c.children && kind(c) !== 'ColumnAlias');
    const expr = exprCtx ? textOf(sql, exprCtx) : textOf(sql, item);
    if (expr.trim() === '*') {
      star = true;
      continue;
    }
    const overCtx =
      exprCtx && kind(exprCtx) === 'SelectWindowItemColumnName' ? find(exprCtx, 'OverWindowItem') : undefined;
    if (overCtx) {
      // The grammar keeps `AS rownum` inside the OVER item, not as a ColumnAlias.
      const call = child(overCtx, 'FunctionCall');
      const spec = child(overCtx, 'WindowSpec');
      const m = /\)\s+AS\s+(`(?:[^`]|``)*`|[A-Za-z_][A-Za-z0-9_$]*)\s*$/i.exec(textOf(sql, overCtx));
      const partition = spec ? child(spec, 'PartitionByClause') : undefined;
      const order = spec ? child(spec, 'OrderByClause') : undefined;
      items.push({
        text: textOf(sql, item),
        expr: m ? textOf(sql, overCtx).slice(0, m.index + 1) : textOf(sql, overCtx),
        alias: m ? unquoteIdent(m[1]) : null,
        column: null,
        pos: posOf(item),
        ctx: overCtx,
        over: {
          fn: call
            ? textOf(sql, child(call, 'FunctionCallExpression') ?? call)
                .replace(/\s*\(.*$/s, '')
                .toUpperCase()
            : '',
          partitionBy: partition ? children(partition, 'ColumnName').map((c) => unquoteIdent(textOf(sql, c))) : [],
          orderBy: order ? textOf(sql, order).replace(/^ORDER\s+BY\s+/i, '') : '',
          pos: posOf(overCtx),
        },
      });
      continue;
    }
    const alias = aliasCtx ? unquoteIdent(textOf(sql, aliasCtx).replace(/^AS\s+/i, '')) : null;
    const column = exprCtx && kind(exprCtx) === 'SelectLiteralColumnName' ? unquoteIdent(expr) : null;
    items.push({ text: textOf(sql, item), expr, alias, column, pos: posOf(item), ctx: exprCtx ?? null, over: null });
  }
  const fromCtx = child(select, 'FromClause');
  let from: SelectShape['from'] = {
    other: fromCtx ? textOf(sql, fromCtx) : '(none)',
    pos: fromCtx ? posOf(fromCtx) : posOf(select),
  };
  const top = fromCtx ? child(fromCtx, 'TableExpression') : undefined;
  const join = top ? readJoinFrom(sql, top, readQuery) : null;
  const subquery = top ? subqueryOf(sql, top) : undefined;
  if (join) from = { join };
  else if (subquery)
    from = { subquery: readQuery(sql, subquery.query), alias: subquery.alias, pos: posOf(subquery.query) };
  else if (fromCtx) {
    const tvf = find(fromCtx, 'WindowTVFExpression');
    const refs = findAll(fromCtx, 'TablePath');
    // One table and nothing else (no join, no subquery): a JOIN or a subquery has no Weir node.
    const subquery = find(fromCtx, 'QueryStatement');
    if (tvf) from = { tvf: readTvf(sql, tvf) };
    // A view may be named `join` (a node's id): only an unquoted JOIN is the keyword.
    else if (refs.length === 1 && !subquery && !/\bJOIN\b/i.test(textOf(sql, fromCtx).replace(/`(?:[^`]|``)*`/g, '')))
      from = { table: unquoteIdent(textOf(sql, refs[0])) };
  }
  const whereCtx = child(select, 'WhereClause');
  const where = whereCtx ? textOf(sql, whereCtx).replace(/^WHERE\s+/i, '') : null;
  const whereExpr = whereCtx?.children?.find((c) => c.children);
  const conditions = whereExpr ? conjuncts(sql, whereExpr) : [];
  const groupCtx = child(select, 'GroupByClause');
  let groupBy: SelectShape['groupBy'] = null;
  if (groupCtx) {
    groupBy = children(groupCtx, 'GroupItemDefinition').map((g) => {
      const gw = child(g, 'GroupWindowFunction');
      if (gw) {
        const fn = textOf(sql, child(gw, 'GroupWindowFunctionName') ?? gw).toUpperCase();
        const time = child(gw, 'TimeAttrColumn');
        return {
          window: {
            fn,
            timeCol: time ? unquoteIdent(textOf(sql, time)) : '',
            intervals: findAll(gw, 'TimeIntervalExpression').map((t) => intervalOf(sql, t)),
          },
        };
      }
      const col = child(g, 'ColumnName');
      if (col && textOf(sql, col) === textOf(sql, g)) return { column: unquoteIdent(textOf(sql, col)) };
      // HOP(...) in GROUP BY parses as a plain function call: read its time column and intervals.
      const call = /^(HOP|TUMBLE|SESSION)\s*\(\s*(`(?:[^`]|``)*`|[A-Za-z_][A-Za-z0-9_]*)/i.exec(textOf(sql, g));
      if (call) {
        return {
          window: {
            fn: call[1].toUpperCase(),
            timeCol: unquoteIdent(call[2]),
            intervals: findAll(g, 'TimeIntervalExpression').map((t) => intervalOf(sql, t)),
          },
        };
      }
      return { other: textOf(sql, g) };
    });
  }
  for (const clause of ['HavingClause', 'OrderByClause', 'LimitClause', 'WindowClause']) {
    const c = child(select, clause);
    if (c)
      unsupported.push({
        what: clause
          .replace(/Clause$/, '')
          .replace(/By$/, ' BY')
          .toUpperCase(),
        pos: posOf(c),
      });
  }
  const shape: SelectShape = {
    kind: 'select',
    pos: posOf(select),
    items,
    star,
    from,
    where,
    conditions,
    groupBy,
    unsupported,
  };
  // `FROM bid B`: one table's alias says nothing Weir's nodes need; `B.x` is its column x.
  const aliasCtx = 'table' in from && fromCtx ? find(fromCtx, 'TableAlias') : undefined;
  return aliasCtx ? unqualified(shape, unquoteIdent(textOf(sql, aliasCtx).replace(/^AS\s+/i, ''))) : shape;
}

/** `FROM (SELECT ...) [AS x]`: the inner query and its alias (Top-N's ROW_NUMBER is computed in one). */
function subqueryOf(sql: string, top: Ctx): { query: Ctx; alias: string | null } | undefined {
  const refs = children(top, 'TableReference');
  if (refs.length !== 1 || children(top, 'TableExpression').length > 0) return undefined;
  const atom = child(child(refs[0], 'TablePrimary') ?? refs[0], 'AtomExpressionTable');
  const query = atom ? child(atom, 'QueryStatement') : undefined;
  const aliasCtx = child(refs[0], 'TableAlias');
  const alias = aliasCtx ? unquoteIdent(textOf(sql, aliasCtx).replace(/^AS\s+/i, '')) : null;
  return query ? { query, alias } : undefined;
}

function intervalOf(sql: string, t: Ctx): number {
  return intervalMs(textOf(sql, t).replace(/^INTERVAL\s+/i, '')) ?? NaN;
}

function readTvf(sql: string, tvf: Ctx): WindowCall {
  const fn = textOf(sql, child(tvf, 'WindowTVFName') ?? tvf).toUpperCase();
  let table = '';
  let timeCol = '';
  const intervals: number[] = [];
  for (const p of children(tvf, 'WindowTVFParam')) {
    const t = textOf(sql, p);
    const time = child(p, 'TimeIntervalExpression');
    const desc = child(p, 'ColumnDescriptor');
    if (time) intervals.push(intervalOf(sql, time));
    else if (desc) timeCol = unquoteIdent(textOf(sql, child(desc, 'ColumnName') ?? desc));
    else if (/^TABLE\s+/i.test(t)) table = unquoteIdent(t.replace(/^TABLE\s+/i, ''));
  }
  return { fn, table, timeCol, intervals, partitionBy: [], pos: posOf(tvf) };
}
