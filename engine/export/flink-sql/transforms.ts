import type { JobNodeOf } from '../../graph/types.ts';
import type { Col, ExportContext, ExportNode, Relation } from './context.ts';
import { rewriteExpr, splitSelectList } from './expressions.ts';
import { quoteIdent } from './identifiers.ts';
import { withPlannerTypes } from './planner-types.ts';
import { filter as filterNode } from '../../nodes/filter/definition.ts';
import { map as mapNode } from '../../nodes/map/definition.ts';
import { union as unionNode } from '../../nodes/union/definition.ts';

type Node<T extends typeof filterNode.type | typeof mapNode.type> = JobNodeOf<T> & { parallelism: number };

/** The explicit column list of a relation: Weir's columns, then the event-time attribute. */
export function projection(rel: Relation): string[] {
  const cols = rel.columns.map((c) => quoteIdent(c.name));
  if (rel.rowtime) cols.push(quoteIdent(rel.rowtime));
  return cols;
}

function selectFrom(rel: Relation, indent = '  '): string {
  return `SELECT\n${projection(rel)
    .map((c) => indent + c)
    .join(',\n')}\nFROM ${rel.sql}`;
}

/**
 * One relation out of several inputs, the way Weir merges the streams of every edge into a node:
 * UNION ALL by column name. Columns missing from an input are NULL there; the event-time attribute
 * survives only when every input has one.
 */
export function unionOf(ctx: ExportContext, node: ExportNode, inputs: Relation[], viewName: string): Relation {
  // The planner's type of each merged column: a union node's output, else the node's merged input.
  const typeOf = (col: string) =>
    node.type === unionNode.type ? ctx.planner.output(node.id, col) : ctx.planner.input(node.id, col);
  const names: string[] = [];
  for (const rel of inputs) for (const c of rel.columns) if (!names.includes(c.name)) names.push(c.name);
  const columns = withPlannerTypes(
    names.map((name) => ({ name, type: '', certain: false })),
    typeOf,
  );
  const withTime = inputs.every((r) => r.rowtime !== null);
  if (!withTime && inputs.some((r) => r.rowtime !== null)) {
    ctx.warn(node, undefined, 'only some inputs carry event time; the union has none, so no window can follow it');
  }
  const rowtime = withTime ? ctx.rowtimeName : null;
  const parts = inputs.map((rel) => {
    const items = columns.map((c) => {
      const own = rel.columns.find((k) => k.name === c.name);
      if (!own) {
        ctx.warn(node, undefined, `column '${c.name}' is missing from input ${rel.sql}; NULL there`);
        return `CAST(NULL AS ${c.type}) AS ${quoteIdent(c.name)}`;
      }
      if (own.type.toUpperCase() !== c.type.toUpperCase()) {
        if (!NUMERIC.test(own.type) || !NUMERIC.test(c.type)) {
          ctx.warn(
            node,
            undefined,
            `column '${c.name}' is ${own.type} in input ${rel.sql} but ${c.type} in the union; cast to ${c.type}`,
          );
        }
        return `CAST(${quoteIdent(c.name)} AS ${c.type}) AS ${quoteIdent(c.name)}`;
      }
      return quoteIdent(c.name);
    });
    if (rowtime) items.push(quoteIdent(rel.rowtime!));
    return `SELECT ${items.join(', ')} FROM ${rel.sql}`;
  });
  const what = node.type === unionNode.type ? '' : ': its inputs merged, as Weir merges every edge into a node';
  ctx.emit(`${ctx.origin(node)}${what}\nCREATE VIEW ${viewName} AS\n${parts.join('\nUNION ALL\n')};`);
  return { sql: viewName, columns, rowtime, ...(inputs.some((r) => r.changelog) ? { changelog: true } : {}) };
}

const NUMERIC = /^(TINYINT|SMALLINT|INT|INTEGER|BIGINT|FLOAT|DOUBLE|REAL|DECIMAL)/i;

export function emitFilter(ctx: ExportContext, node: Node<typeof filterNode.type>, input: Relation): void {
  const where = rewriteExpr(node.config.where, input.columns);
  const name = quoteIdent(node.id);
  ctx.emit(`${ctx.origin(node)}\nCREATE VIEW ${name} AS\n${selectFrom(input)}\nWHERE ${where};`);
  ctx.relations.set(node.id, { ...input, sql: name });
}

export function emitMap(ctx: ExportContext, node: Node<typeof mapNode.type>, input: Relation): void {
  const items = splitSelectList(node.config.select, input.columns);
  const explicit: Array<{ sql: string; col: Col }> = [];
  for (const item of items) {
    if (item.star) continue;
    if (item.generatedName) {
      ctx.warn(
        node,
        'config.select',
        `'${item.expr}' has no alias; Flink names it ${item.name} (add AS name for a stable column name)`,
      );
    }
    const plain = item.expr === quoteIdent(item.name);
    explicit.push({
      sql: plain ? item.expr : `${item.expr} AS ${quoteIdent(item.name)}`,
      col: { name: item.name, type: 'STRING', certain: false }, // typed by the planner (index.ts)
    });
  }
  // As Weir: `*` keeps every input column in place; explicit columns of the same name replace them.
  let out = explicit;
  if (items.some((i) => i.star)) {
    const byName = new Map(explicit.map((e) => [e.col.name, e]));
    out = input.columns.map((c) => byName.get(c.name) ?? { sql: quoteIdent(c.name), col: c });
    out.push(...explicit.filter((e) => !input.columns.some((c) => c.name === e.col.name)));
  }
  const select = out.map((o) => o.sql);
  const columns = out.map((o) => o.col);
  let rowtime: string | null = null;
  if (input.rowtime) {
    if (columns.some((c) => c.name === input.rowtime)) {
      ctx.warn(
        node,
        'config.select',
        `a column named '${input.rowtime}' hides the event-time attribute; no window can follow`,
      );
    } else {
      rowtime = input.rowtime;
      select.push(quoteIdent(rowtime));
    }
  }
  const name = quoteIdent(node.id);
  ctx.emit(
    `${ctx.origin(node)}\nCREATE VIEW ${name} AS\nSELECT\n${select.map((o) => '  ' + o).join(',\n')}\nFROM ${input.sql};`,
  );
  ctx.relations.set(node.id, { sql: name, columns, rowtime, ...(input.changelog ? { changelog: true } : {}) });
}
