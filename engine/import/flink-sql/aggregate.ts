/**
 * `SELECT keys, aggregates FROM t [WHERE ...] GROUP BY keys` (no window function) as an `aggregate`
 * node: a regular group aggregation, an updating result in both Flink and Weir. A WHERE filters
 * the input rows before grouping, so it becomes a `filter` node in front. The exporter writes
 * `agg(x) FILTER (WHERE c)` as `agg(CASE WHEN c THEN x END)` (the test grammar has no FILTER);
 * that form is turned back into FILTER, so the job reads as it was written and re-exports the same.
 */
import type { JobBuilder, Relation } from './builder.ts';
import type { Origin } from './statements.ts';
import type { SelectItem, SelectShape } from './query-shape.ts';
import { child, children, find, kind, textOf, type Ctx } from './tree.ts';
import { aggregate as aggregateNode } from '../../nodes/aggregate/definition.ts';
import { filter as filterNode } from '../../nodes/filter/definition.ts';
import { map as mapNode } from '../../nodes/map/definition.ts';
import { inlineComputed } from './computed-columns.ts';

export const AGGREGATE =
  /\b(COUNT|SUM|MIN|MAX|AVG|STDDEV_POP|STDDEV_SAMP|VAR_POP|VAR_SAMP|VARIANCE|FIRST_VALUE|LAST_VALUE|LISTAGG)\s*\(/i;

export function importAggregate(
  b: JobBuilder,
  name: string,
  q: SelectShape,
  table: string,
  origin: Origin | null,
): Relation | null {
  const input = b.relation(table, q.pos, `'${name}'`);
  if (!input) return null;
  const keys: string[] = [];
  // GROUP BY an expression the select names (`DATE_FORMAT(t, 'yyyy-MM-dd') AS day`): computed by a
  // map in front, then grouped by that name, as Weir groups by columns.
  const computedKeys: Array<{ item: SelectItem; expr: string }> = [];
  for (const g of q.groupBy ?? []) {
    if ('column' in g) keys.push(g.column);
    else if ('other' in g) {
      const item = q.items.find((i) => i.alias !== null && sameText(i.expr, g.other));
      if (item) {
        keys.push(item.alias!);
        computedKeys.push({ item, expr: g.other });
      } else
        b.problem(
          q.pos,
          `'${name}': GROUP BY ${g.other} is not a column; Weir groups by columns (select the expression with a name to group by it)`,
          'error',
        );
    }
  }
  const aggregates: string[] = [];
  const names: string[] = [];
  for (const item of q.items) {
    if (computedKeys.some((k) => k.item === item)) continue;
    if (item.column !== null && keys.includes(item.column) && (item.alias === null || item.alias === item.column))
      continue; // a key column: the aggregate node writes its keys first
    if (!AGGREGATE.test(item.expr)) {
      b.problem(
        item.pos,
        `'${name}': ${item.text} is neither a key nor an aggregate; Weir's aggregate writes keys and aggregates`,
      );
      continue;
    }
    // Unnamed, Flink names it EXPR$<position in the select>: named so here, so that a query
    // reading it (a derived table's outer query) and the node agree on the name.
    const k = q.items.indexOf(item);
    const text = inlineComputed(asFilter(b.sql, item) ?? item.text, input);
    aggregates.push(item.alias === null ? `${text} AS \`EXPR$${k}\`` : text);
    names.push(item.alias ?? `EXPR$${k}`);
  }
  if (aggregates.length === 0) {
    b.problem(q.pos, `'${name}': GROUP BY needs at least one aggregate (COUNT, SUM, MIN, MAX, AVG)`, 'error');
    return null;
  }
  let current = input;
  if (q.where !== null) {
    const fid = b.freeId(`${name}_where`);
    b.add({ id: fid, type: filterNode.type, config: { where: inlineComputed(q.where, input) } }, q.pos, null);
    b.connect(current, fid);
    current = { ...input, nodes: [fid] };
  }
  if (computedKeys.length > 0) {
    const mid = b.freeId(`${name}_keys`);
    const select = ['*', ...computedKeys.map((k) => `${inlineComputed(k.expr, input)} AS ${k.item.alias}`)].join(', ');
    b.add({ id: mid, type: mapNode.type, config: { select } }, q.pos, null);
    b.connect(current, mid);
    current = { ...input, nodes: [mid] };
  }
  const id = b.freeId(origin?.id ?? name);
  b.add(
    { id, type: aggregateNode.type, config: { keyBy: keys.join(', '), aggregates: aggregates.join(', ') } },
    q.pos,
    origin,
  );
  b.connect(current, id);
  // An updating result has no event-time attribute (the exporter passes none on either).
  return { nodes: [id], rowtime: null, columns: [...keys, ...names] };
}

/**
 * `agg([DISTINCT] CASE WHEN c THEN x END) [AS a]` -> `agg([DISTINCT] x) FILTER (WHERE c) [AS a]`
 * (`COUNT(CASE WHEN c THEN 1 END)` -> `COUNT(*) FILTER (WHERE c)`): the same rows, since an
 * aggregate skips NULLs. Only a CASE with one WHEN and no ELSE is that form; others stay as written.
 */
function asFilter(sql: string, item: SelectItem): string | null {
  const call = item.ctx ? find(item.ctx, 'FunctionCallExpression') : undefined;
  if (!call || textOf(sql, call) !== item.expr) return null;
  const fn = textOf(sql, child(call, 'FunctionNameWithParams') ?? call).toUpperCase();
  const distinct =
    child(call, 'SetQuantifier') !== undefined && /^DISTINCT$/i.test(textOf(sql, child(call, 'SetQuantifier')!));
  const params = children(call, 'FunctionParam');
  const caseCtx = params.length === 1 ? searchedCase(params[0]) : undefined;
  if (!caseCtx) return null;
  const whens = children(caseCtx, 'WhenClause');
  const hasElse = (caseCtx.children ?? []).some(
    (c) => !c.children && (c as unknown as { getText(): string }).getText().toUpperCase() === 'ELSE',
  );
  if (whens.length !== 1 || hasElse) return null;
  const [cond, value] = children(whens[0], 'Expression');
  if (!cond || !value) return null;
  const v = textOf(sql, value);
  const arg = fn === 'COUNT' && !distinct && v === '1' ? '*' : `${distinct ? 'DISTINCT ' : ''}${v}`;
  const alias = item.text.slice(item.expr.length);
  return `${fn}(${arg}) FILTER (WHERE ${textOf(sql, cond)})${alias}`;
}

/** The SearchedCase a function parameter is, through its Expression / Predicated wrappers. */
function searchedCase(param: Ctx): Ctx | undefined {
  let c: Ctx | undefined = param;
  while (c && kind(c) !== 'SearchedCase') {
    const inner: Ctx[] = (c.children ?? []).filter((x) => x.children);
    if (inner.length !== 1) return undefined;
    c = inner[0];
  }
  return c;
}

/** Two expressions written alike (case and spacing aside, outside quotes). */
function sameText(a: string, b: string): boolean {
  const norm = (t: string) =>
    t
      .replace(/\s+/g, ' ')
      .replace(/\s*([(),])\s*/g, '$1')
      .trim()
      .toUpperCase();
  return norm(a) === norm(b);
}
