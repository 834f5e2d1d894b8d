/**
 * Checks that need the data flowing through the graph: windows have event time upstream,
 * expressions parse, and the columns they read exist wherever the upstream schema is known.
 * Runs on an acyclic, structurally valid graph (see check-graph.ts). Browser-safe. Each type's
 * output-column rule is its definition's `columns` (engine/nodes/<type>/definition.ts):
 *
 * Known schemas: a generator emits {seq, key, value, ts}; a file source is unknown unless it
 * declares `columns`; filter passes its input through; map emits its select list; union emits its
 * inputs' columns; a window emits window_start, window_end, the key columns and the aggregate
 * aliases on `out`, and its input unchanged on `late`.
 */

import type { JobDocument, JobNode, JobProblem, NormalizedJob } from './types.ts';
import type { GraphIndex } from './check-graph.ts';
import { isSource } from './ports.ts';
import { outputColumnsOf, type ExpressionChecker, type ExpressionKind } from './expressions.ts';
import { isNexmarkPort, nexmarkColumnNames } from './nexmark.ts';
import { definitionOf } from './node-types.ts';
import type { Columns } from '../nodes/columns.ts';
import { columnTyper, type ColumnTypeOptions, type ColumnTyper } from './column-types.ts';
import { unknownColumnMessage } from '../nodes/nearest.ts';
import type { ColumnType } from '../sql/index.ts';
import { checkEventTimeType, untypedSourceWarning } from './check-types.ts';
import { configKey, orderedTypesKey, type ValidationCache } from './validation-cache.ts';

export type { Columns };

// The generator's columns belong to its definition; re-exported for this module's importers.
export { GENERATOR_COLUMNS } from '../nodes/source-generator/definition.ts';

const err = (path: string, message: string, nodeId: string): JobProblem => ({
  path,
  message,
  severity: 'error',
  nodeId,
});

/** Declared (or fixed) columns, else those a sample of the data gives, else null. */
function sourceColumns(ctx: Ctx, node: JobNode): Columns {
  const own = definitionOf(node).sourceColumns?.(node.config);
  if (own) return own;
  const sampled = ctx.sampled?.(node);
  return sampled && Object.keys(sampled).length > 0 ? Object.keys(sampled) : null;
}

interface Ctx {
  doc: JobDocument;
  idx: GraphIndex;
  expr: ExpressionChecker;
  problems: JobProblem[];
  /** Output columns per node id and port. */
  out: Map<string, { out: Columns; late: Columns }>;
  /** Static column types through the graph (declared, sampled, computed). */
  typer: ColumnTyper;
  sampled: ColumnTypeOptions['sampled'];
  cache: ValidationCache | undefined;
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

/**
 * Syntax and types (against the node's input types), then the columns it reads against `known`.
 * Returns false when the expression does not compile. A column unknown to the input is typed
 * UNKNOWN, which passes every type check: a misspelling never hides behind a type error.
 */
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
  const e = ctx.expr.checkExpression(kind, text, ctx.typer.inputOf(node.id));
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
      ctx.problems.push(err(path, unknownColumnMessage(col, known), node.id));
    }
  }
  return true;
}

function visit(ctx: Ctx, node: JobNode, index: number): void {
  const ins = inputColumns(ctx, node.id);
  const input = ins.length > 0 ? ins[0] : null;
  if (isSource(node.type)) {
    // Columns per port of a Nexmark source come from graph/nexmark.ts (inputColumns).
    const cols = sourceColumns(ctx, node);
    const field = (node.config as { eventTime?: { field?: string } }).eventTime?.field;
    const at = `nodes[${index}].config.eventTime.field`;
    // A field the source computes itself (Kafka's record timestamp) is not among the row's columns.
    const external = definitionOf(node).eventTime?.external?.(node.config) ?? false;
    if (field !== undefined && cols && !cols.includes(field) && !external) {
      ctx.problems.push(err(at, unknownColumnMessage(field, cols), node.id));
    } else if (field !== undefined && !external) {
      const bad = checkEventTimeType(field, ctx.typer.outputOf(node.id, 'out'));
      // A type read from a sample of the data is a guess (one odd value makes a column DOUBLE): the
      // run counts such values as bad records, so it is said, not refused. Declared types are refused.
      const declared = (definitionOf(node).sourceColumns?.(node.config) ?? null) !== null;
      if (bad) ctx.problems.push(declared ? err(at, bad, node.id) : { ...err(at, bad, node.id), severity: 'warning' });
    }
    // Only a source reading a local file has data to sample (a Nexmark source's columns are per port).
    if (!cols && ctx.sampled && definitionOf(node).localFile?.access === 'read')
      ctx.problems.push(untypedSourceWarning(node, index));
    ctx.out.set(node.id, { out: cols, late: null });
    return;
  }
  // Every other type states its rule in its definition; sinks emit nothing.
  const def = definitionOf(node);
  const rule = def.columns;
  if (!rule) return;
  const inputs = (ctx.idx.inputs.get(node.id) ?? []).map((e, i) => ({
    port: e.toPort,
    columns: ins[i],
    types: ctx.typer.outputOf(e.from, e.fromPort ?? 'out'),
  }));
  // A `late` port carries the node's input unchanged.
  const late = def.ports.outputs.includes('late') ? input : null;
  const key = ctx.cache ? columnCheckKey(node, index, inputs) : null;
  const hit = key === null ? undefined : ctx.cache!.columns.get(key);
  if (hit) {
    ctx.problems.push(...hit.problems);
    ctx.out.set(node.id, { out: hit.out, late });
    return;
  }
  const path = (field?: string) => (field === undefined ? `nodes[${index}]` : `nodes[${index}].config.${field}`);
  const before = ctx.problems.length;
  const out = rule(node.config, {
    nodeId: node.id,
    inputs,
    path,
    error: (at, message) => ctx.problems.push(err(at, message, node.id)),
    checkExpression: (field, kind, text, known) => checkExpr(ctx, node, index, field, kind, text, known),
    outputColumns: (kind, text, input) => outputColumnsOf(ctx.expr, kind, text, input),
  });
  if (key !== null) ctx.cache!.columns.set(key, { out, problems: ctx.problems.slice(before) });
  ctx.out.set(node.id, { out, late });
}

/**
 * Everything a node's column rule reads (validation-cache.ts): its id and index (in its problems),
 * type, config, and per input edge the port, the columns and their types (the merged input types
 * its expressions are typed against derive from them).
 */
function columnCheckKey(
  node: JobNode,
  index: number,
  inputs: Array<{ port: string | undefined; columns: Columns; types: ReadonlyMap<string, ColumnType> }>,
): string {
  let key = `${node.id}\u0000${index}\u0000${node.type}\u0000${configKey(node.config)}`;
  for (const i of inputs)
    key += `\u0000${i.port ?? ''}\u0003${i.columns === null ? '\u0004' : i.columns.join('\u0001')}\u0003${orderedTypesKey(i.types)}`;
  return key;
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
  sampled?: ColumnTypeOptions['sampled'],
  cache?: ValidationCache,
): NodeColumns {
  // The typer reads only nodes, edges and configs, which a schema-valid document has as a job does.
  const typer = columnTyper(doc as unknown as NormalizedJob, { sampled, cache });
  const ctx: Ctx = { doc, idx, expr, problems, out: new Map(), typer, sampled, cache };
  checkEventTime(ctx);
  for (const id of idx.order) {
    const { node, index } = idx.byId.get(id)!;
    visit(ctx, node, index);
  }
  return ctx.out;
}
