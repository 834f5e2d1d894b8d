/**
 * The output-column rule of a node type, as its definition states it (`columns`): check the SQL
 * in its config against the columns reaching its inputs (when known) and return the columns it
 * emits. engine/graph/check-columns.ts calls the rules in topological order. Browser-safe.
 */
import { ExpressionError } from '../sql/index.ts';
import { checkDuration } from './units.ts';
import type { InputPort } from './ports.ts';
import type { WindowSpec } from './config.ts';
import type { ColumnTypeMap } from './column-types.ts';
import { unknownColumnMessage } from './nearest.ts';

/** Column names, or null when not known before reading the data. */
export type Columns = readonly string[] | null;

export interface ColumnsInput {
  port: InputPort | undefined;
  columns: Columns;
  /** The static types of the columns on this edge, where known (an absent name: type unknown). */
  types: ColumnTypeMap;
}

export interface ColumnsContext {
  /** The node's id, for messages. */
  nodeId: string;
  /** The columns on each input edge, in edge order, with the port it enters. */
  inputs: readonly ColumnsInput[];
  /** `nodes[i].config.<field>`, or `nodes[i]` without a field. */
  path(field?: string): string;
  /** Records an error of this node at `path`. */
  error(path: string, message: string): void;
  /**
   * Checks an expression at config `field`: its syntax and types (against the first input's column
   * types), then the columns it reads against `known` (each problem recorded); false when it does
   * not compile.
   */
  checkExpression(field: string, kind: ExpressionListKind, text: string, known: Columns): boolean;
  /** Output columns of a valid select, aggregate or keyBy list, given its input's (null = unknown). */
  outputColumns(kind: 'select' | 'aggregates' | 'keyBy', text: string, input: Columns): Columns;
}

/** The SQL fragments the validator checks (engine/graph/expressions.ts). */
export type ExpressionListKind = 'where' | 'select' | 'keyBy' | 'aggregates' | 'orderBy';

/** The columns on a node's first input (one-input nodes), null when unknown or absent. */
export function firstInput(ctx: ColumnsContext): Columns {
  return ctx.inputs.length > 0 ? ctx.inputs[0].columns : null;
}

/** Runs `f`; an expression error becomes a problem at `path` and null. */
export function attempt<T>(ctx: ColumnsContext, path: string, f: () => T): T | null {
  try {
    return f();
  } catch (e) {
    if (!(e instanceof ExpressionError)) throw e;
    ctx.error(path, e.message);
    return null;
  }
}

/** A problem per column of `cols` not in `known` (nothing when `known` is unknown or has `*`). */
export function checkKnown(
  ctx: ColumnsContext,
  path: string,
  cols: readonly string[],
  known: Columns,
  prefix = '',
): void {
  if (!known || known.includes('*')) return;
  for (const c of new Set(cols)) {
    if (!known.includes(c)) ctx.error(path, unknownColumnMessage(c, known, prefix));
  }
}

/** Tumbling, sliding or session with positive durations (a sliding window's slide at most its size). */
export function checkWindowSpec(ctx: ColumnsContext, w: WindowSpec, field: string): void {
  const at = (f: string) => ctx.path(`${field}.${f}`);
  if (w.kind === 'session') {
    const gap = checkDuration(w.gap);
    if (gap.ok && gap.value <= 0) ctx.error(at('gap'), 'must be greater than 0');
    return;
  }
  const sizes: Array<[string, unknown]> = [
    ['size', w.size],
    ...(w.kind === 'sliding' ? [['slide', w.slide] as [string, unknown]] : []),
  ];
  for (const [f, v] of sizes) {
    const d = checkDuration(v);
    if (d.ok && d.value <= 0) ctx.error(at(f), 'must be greater than 0');
  }
  if (w.kind === 'sliding') {
    const size = checkDuration(w.size),
      slide = checkDuration(w.slide);
    if (size.ok && slide.ok && slide.value > size.value)
      ctx.error(at('slide'), `slide (${slide.value} ms) must not be larger than size (${size.value} ms)`);
  }
}
