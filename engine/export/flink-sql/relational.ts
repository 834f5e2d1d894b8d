/**
 * The relational nodes in Flink SQL:
 * - `aggregate` -> `SELECT keys, aggs FROM input GROUP BY keys` (a regular group aggregation; an
 *   updating result, as Weir's changelog);
 * - `topn` -> `ROW_NUMBER() OVER (PARTITION BY ... ORDER BY ...) AS rownum` filtered by
 *   `rownum <= N` (Flink's Top-N), `rownum = 1` for limit 1 (deduplication);
 * - `join.interval` -> an interval join: equal keys and
 *   `L.rowtime BETWEEN R.rowtime + lower AND R.rowtime + upper`.
 * None of their outputs keeps an event-time attribute in the script (Weir's join result time is
 * the larger of the two, which Flink cannot declare as a time attribute), so a window after them is
 * left out with a warning by the window exporter.
 */
import type { JobNodeOf } from '../../graph/types.ts';
import { splitTopLevel } from '../../graph/expressions.ts';
import { tokenize } from '../../sql/lexer.ts';
import { compileJoinSelect, rewriteJoinRefs } from '../../sql/join-select.ts';
import { compileOrderBy } from '../../sql/order-by.ts';
import { compileAggregates, parseKeyBy } from '../../sql/index.ts';
import { filtersAsCase } from './aggregate-filters.ts';
import { parseSignedDuration } from '../../graph/signed-duration.ts';
import type { Col, ExportContext, Relation } from './context.ts';
import { inferType, rewriteExpr, splitSelectList } from './expressions.ts';
import { quoteIdent } from './identifiers.ts';
import { intervalLiteral } from './intervals.ts';

type N<T extends 'aggregate' | 'topn' | 'join.interval'> = JobNodeOf<T> & { parallelism: number };

const RANK = 'rownum';

export function emitAggregate(ctx: ExportContext, node: N<'aggregate'>, input: Relation): Relation {
  const c = node.config;
  const keys = parseKeyBy(c.keyBy).columns;
  const aggs = splitSelectList(filtersAsCase(c.aggregates), input.columns, { avgAsDouble: true });
  // COUNT is BIGINT whatever it counts (type inference cannot see through FILTER / CASE).
  compileAggregates(c.aggregates).forEach((call, i) => {
    if (call.fn === 'COUNT' && aggs[i]) aggs[i] = { ...aggs[i], type: 'BIGINT', certain: true };
  });
  for (const a of aggs) if (a.generatedName) ctx.warn(node, 'config.aggregates', `'${a.expr}' has no alias; Flink names it ${a.name}`);
  const comments = [ctx.origin(node), '-- A group aggregation: an updating result (Weir emits it as a changelog: +I, -U, +U).'];
  if (c.stateTtl !== undefined) {
    const ttl = parseSignedDuration(c.stateTtl);
    ctx.warn(node, 'config.stateTtl', `stateTtl ${ttl} ms is event time in Weir; Flink's table.exec.state.ttl is processing time and job-wide (not set here)`);
  }
  const keyCols = keys.map((k) => input.columns.find((col) => col.name === k) ?? { name: k, type: 'STRING', certain: false });
  const items = [...keys.map(quoteIdent), ...aggs.map((a) => `${a.expr} AS ${quoteIdent(a.name)}`)];
  const name = quoteIdent(node.id);
  ctx.emit(`${comments.join('\n')}\nCREATE VIEW ${name} AS\nSELECT\n${items.map((i) => '  ' + i).join(',\n')}\nFROM ${input.sql}\nGROUP BY ${keys.map(quoteIdent).join(', ')};`);
  const columns: Col[] = [...keyCols, ...aggs.map((a) => ({ name: a.name, type: a.type, certain: a.certain }))];
  return { sql: name, columns, rowtime: null, changelog: true };
}

export function emitTopN(ctx: ExportContext, node: N<'topn'>, input: Relation): Relation {
  const c = node.config;
  const keys = parseKeyBy(c.partitionBy).columns.map(quoteIdent);
  const order = compileOrderBy(c.orderBy).items
    .map((i) => `${rewriteExpr(i.expr, input.columns)} ${i.desc ? 'DESC' : 'ASC'}`);
  const dedup = c.limit === 1;
  const comments = [ctx.origin(node), dedup
    ? `-- Deduplication (limit 1): keeps the ${/\bDESC$/.test(order[0]) ? 'last' : 'first'} row per partition in this order (Flink's Top-1 / deduplication pattern).`
    : `-- Top-N: the first ${c.limit} rows per partition; an updating result (Weir emits it as a changelog).`];
  const cols = input.columns.map((col) => quoteIdent(col.name));
  const inner = [...cols, ...(input.rowtime ? [quoteIdent(input.rowtime)] : []),
    `ROW_NUMBER() OVER (PARTITION BY ${keys.join(', ')} ORDER BY ${order.join(', ')}) AS ${RANK}`];
  const name = quoteIdent(node.id);
  ctx.emit(`${comments.join('\n')}\nCREATE VIEW ${name} AS\nSELECT ${[...cols, RANK].join(', ')}\nFROM (\n  SELECT\n${inner.map((i) => '    ' + i).join(',\n')}\n  FROM ${input.sql}\n)\nWHERE ${dedup ? `${RANK} = 1` : `${RANK} <= ${c.limit}`};`);
  return { sql: name, columns: [...input.columns, { name: RANK, type: 'BIGINT', certain: true }], rowtime: null, changelog: true };
}

/** `L.x` -> `L.x` with x quoted where needed; everything else stays as written. */
function qualify(text: string): string {
  const toks = tokenize(text);
  let out = '';
  let pos = 0;
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k], dot = toks[k + 1], col = toks[k + 2];
    if (t.kind === 'ident' && (t.text === 'L' || t.text === 'R') && dot?.text === '.' && col && (col.kind === 'ident' || col.kind === 'quoted')) {
      const name = col.kind === 'quoted' ? col.text.slice(1, -1) : col.text;
      out += text.slice(pos, t.start) + `${t.text}.${quoteIdent(name)}`;
      pos = col.end;
      k += 2;
    }
  }
  return out + text.slice(pos);
}

const ALIAS = /\s+AS\s+(`[^`]+`|"[^"]+"|[A-Za-z_][A-Za-z0-9_$]*)\s*$/i;

function bound(rt: string, ms: number): string {
  return ms === 0 ? rt : ms > 0 ? `${rt} + ${intervalLiteral(ms)}` : `${rt} - ${intervalLiteral(-ms)}`;
}

export function emitIntervalJoin(ctx: ExportContext, node: N<'join.interval'>, left: Relation, right: Relation): Relation | null {
  const c = node.config;
  if (!left.rowtime || !right.rowtime) {
    ctx.warn(node, undefined, 'an input has no event time in the exported script; the interval join and everything after it is left out');
    return null;
  }
  const sel = compileJoinSelect(c.select);
  const exprs = splitTopLevel(c.select).map((item) => qualify(item.replace(ALIAS, '')));
  const items = exprs.map((e, i) => `${e} AS ${quoteIdent(sel.columns[i])}`);
  // Types: both inputs' columns under the names rewriteJoinRefs gives `L.x` / `R.x` (`L$x`).
  const both: Col[] = [...left.columns.map((k) => ({ ...k, name: `L$${k.name}` })), ...right.columns.map((k) => ({ ...k, name: `R$${k.name}` }))];
  const columns: Col[] = splitTopLevel(c.select).map((item, i) => {
    const t = inferType(tokenize(rewriteJoinRefs(item.replace(ALIAS, ''))), both);
    return { name: sel.columns[i], type: t?.type ?? 'STRING', certain: t?.certain ?? false };
  });
  const lk = parseKeyBy(c.leftKey).columns, rk = parseKeyBy(c.rightKey).columns;
  const lower = parseSignedDuration(c.lower), upper = parseSignedDuration(c.upper);
  const lrt = `L.${quoteIdent(left.rowtime)}`, rrt = `R.${quoteIdent(right.rowtime)}`;
  const where = [...lk.map((k, i) => `L.${quoteIdent(k)} = R.${quoteIdent(rk[i])}`),
    `${lrt} BETWEEN ${bound(rrt, lower)} AND ${bound(rrt, upper)}`];
  const name = quoteIdent(node.id);
  ctx.emit(`${ctx.origin(node)}\n-- An interval join (append-only). Weir's result time is the larger of the two rows' times;\n`
    + `-- Flink keeps both as columns, so no event-time attribute is passed on here.\n`
    + `CREATE VIEW ${name} AS\nSELECT\n${items.map((i) => '  ' + i).join(',\n')}\nFROM ${left.sql} AS L, ${right.sql} AS R\nWHERE ${where.join('\n  AND ')};`);
  return { sql: name, columns, rowtime: null };
}
