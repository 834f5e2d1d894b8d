/**
 * Checks that need the data flowing through the graph: windows have event time upstream,
 * expressions parse, and the columns they read exist wherever the upstream schema is known.
 * Runs on an acyclic, structurally valid graph (see check-graph.ts). Browser-safe.
 *
 * Known schemas: a generator emits {seq, key, value, ts}; a file source is unknown unless it
 * declares `columns`; filter passes its input through; map emits its select list; union emits its
 * inputs' columns; a window emits window_start, window_end, the key columns and the aggregate
 * aliases on `out`, and its input unchanged on `late`.
 */

import type { JobDocument, JobNode, JobProblem } from './types.ts';
import type { GraphIndex } from './check-graph.ts';
import { isSource } from './ports.ts';
import { outputColumnsOf, type ExpressionChecker, type ExpressionKind } from './expressions.ts';
import { isNexmarkPort, nexmarkColumnNames } from './nexmark.ts';
import { definitionOf } from './node-types.ts';
import type { Columns } from '../nodes/columns.ts';

export type { Columns };

// The generator's columns belong to its definition; re-exported for this module's importers.
export { GENERATOR_COLUMNS } from '../nodes/source-generator/definition.ts';

const err = (path: string, message: string, nodeId: string): JobProblem => ({
  path,
  message,
  severity: 'error',
  nodeId,
});

function sourceColumns(node: JobNode): Columns {
  return definitionOf(node).sourceColumns?.(node.config) ?? null;
}

interface Ctx {
  doc: JobDocument;
  idx: GraphIndex;
  expr: ExpressionChecker;
  problems: JobProblem[];
  /** Output columns per node id and port. */
  out: Map<string, { out: Columns; late: Columns }>;
}

function inputColumns(ctx: Ctx, id: string): Columns[] {
  // The `bad` port's dead letters always have the same columns (file, line, reason, text).
  return (ctx.idx.inputs.get(id) ?? []).map((e) =>
    e.fromPort === 'bad'
      ? DEAD_LETTER_COLUMNS
      : isNexmarkPort(e.fromPort)
        ? nexmarkColumnNames(e.fromPort)
        : (ctx.out.get(e.from)?.[e.fromPort] ?? null),
  );
}

/** Syntax, then known columns. Returns false when the expression does not parse. */
function checkExpr(
  ctx: Ctx,
  node: JobNode,
  index: number,
  field: string,
  kind: ExpressionKind,
  text: string,
  known: Columns,
): boolean {
  const path = `nodes[${index}].config.${field}`;
  const e = ctx.expr.checkExpression(kind, text);
  if (e) {
    const where = e.column !== undefined && !/column \d+/.test(e.message) ? ` (column ${e.column})` : '';
    ctx.problems.push(err(path, `${e.message}${where}`, node.id));
    return false;
  }
  if (known && !known.includes('*')) {
    const seen = new Set<string>();
    for (const col of ctx.expr.referencedColumns(kind, text)) {
      if (known.includes(col) || seen.has(col)) continue;
      seen.add(col);
      ctx.problems.push(err(path, `unknown column '${col}' (known: ${known.join(', ')})`, node.id));
    }
  }
  return true;
}

function sameColumns(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((c) => b.includes(c));
}

function visit(ctx: Ctx, node: JobNode, index: number): void {
  const ins = inputColumns(ctx, node.id);
  const input = ins.length > 0 ? ins[0] : null;
  if (isSource(node.type)) {
    // Columns per port of a Nexmark source come from graph/nexmark.ts (inputColumns).
    const cols = sourceColumns(node);
    const field = (node.config as { eventTime?: { field?: string } }).eventTime?.field;
    if (field !== undefined && cols && !cols.includes(field)) {
      ctx.problems.push(
        err(`nodes[${index}].config.eventTime.field`, `unknown column '${field}' (known: ${cols.join(', ')})`, node.id),
      );
    }
    ctx.out.set(node.id, { out: cols, late: null });
    return;
  }
  switch (node.type) {
    case 'filter':
      checkExpr(ctx, node, index, 'where', 'where', node.config.where, input);
      ctx.out.set(node.id, { out: input, late: null });
      return;
    case 'map': {
      const ok = checkExpr(ctx, node, index, 'select', 'select', node.config.select, input);
      const cols = ok ? outputColumnsOf(ctx.expr, 'select', node.config.select, input) : null;
      ctx.out.set(node.id, { out: cols, late: null });
      return;
    }
    case 'union': {
      const known = ins.filter((c): c is readonly string[] => c !== null);
      if (known.length === ins.length && known.length > 1 && !known.every((c) => sameColumns(c, known[0]))) {
        ctx.problems.push(
          err(
            `nodes[${index}]`,
            `union inputs have different columns: ${known.map((c) => `(${c.join(', ')})`).join(' vs ')}`,
            node.id,
          ),
        );
      }
      ctx.out.set(node.id, { out: known.length === ins.length && ins.length > 0 ? known[0] : null, late: null });
      return;
    }
    case 'window': {
      const c = node.config;
      let keys: Columns = [];
      if (c.keyBy !== undefined && c.keyBy.trim() !== '') {
        keys = checkExpr(ctx, node, index, 'keyBy', 'keyBy', c.keyBy, input)
          ? outputColumnsOf(ctx.expr, 'keyBy', c.keyBy, input)
          : null;
      }
      const aggs = checkExpr(ctx, node, index, 'aggregates', 'aggregates', c.aggregates, input)
        ? outputColumnsOf(ctx.expr, 'aggregates', c.aggregates, input)
        : null;
      const out = keys && aggs ? ['window_start', 'window_end', ...keys, ...aggs] : null;
      if (keys && aggs) {
        const clash = aggs.find((a) => a === 'window_start' || a === 'window_end' || keys.includes(a));
        if (clash !== undefined) {
          ctx.problems.push(
            err(
              `nodes[${index}].config.aggregates`,
              `output column '${clash}' is already a ${keys.includes(clash) ? 'key column' : 'window column'}: choose another alias`,
              node.id,
            ),
          );
        }
      }
      ctx.out.set(node.id, { out, late: input });
      return;
    }
    default: {
      // The joins, aggregate and topn state their rule in their definitions; sinks emit nothing.
      const rule = definitionOf(node).columns;
      if (!rule) return;
      const path = (field?: string) => (field === undefined ? `nodes[${index}]` : `nodes[${index}].config.${field}`);
      const out = rule(node.config, {
        nodeId: node.id,
        inputs: (ctx.idx.inputs.get(node.id) ?? []).map((e, i) => ({ port: e.toPort, columns: ins[i] })),
        path,
        error: (at, message) => ctx.problems.push(err(at, message, node.id)),
      });
      ctx.out.set(node.id, { out, late: null });
      return;
    }
  }
}

/** Every source a node reads from, directly or through other nodes. */
function upstreamSources(idx: GraphIndex, id: string): string[] {
  const found: string[] = [];
  const seen = new Set<string>();
  const stack = [id];
  while (stack.length > 0) {
    const cur = stack.pop()!;
    for (const e of idx.inputs.get(cur) ?? []) {
      if (seen.has(e.from)) continue;
      seen.add(e.from);
      const n = idx.byId.get(e.from)!.node;
      if (isSource(n.type)) found.push(e.from);
      else stack.push(e.from);
    }
  }
  return found;
}

function checkEventTime(ctx: Ctx): void {
  for (const [id, { node, index }] of ctx.idx.byId) {
    if (!definitionOf(node).eventTime?.needs?.(node.config)) continue;
    for (const src of upstreamSources(ctx.idx, id)) {
      const s = ctx.idx.byId.get(src)!;
      // Each source's definition says whether its records carry event time (a generator always does).
      if (!definitionOf(s.node).eventTime?.has?.(s.node.config)) {
        ctx.problems.push(
          err(
            `nodes[${index}].config.window`,
            `${node.type} '${id}' needs event time, but source '${src}' has none: set nodes[${s.index}].config.eventTime`,
            id,
          ),
        );
      }
    }
  }
}

/** Output columns of every node reached in topological order, per output port (null = unknown). */
/** Columns of a dead letter on a file source's `bad` port. */
export const DEAD_LETTER_COLUMNS = ['file', 'line', 'reason', 'text'];

export type NodeColumns = Map<string, { out: Columns; late: Columns }>;

export function checkColumns(
  doc: JobDocument,
  idx: GraphIndex,
  expr: ExpressionChecker,
  problems: JobProblem[],
): NodeColumns {
  const ctx: Ctx = { doc, idx, expr, problems, out: new Map() };
  checkEventTime(ctx);
  for (const id of idx.order) {
    const { node, index } = idx.byId.get(id)!;
    visit(ctx, node, index);
  }
  return ctx.out;
}
