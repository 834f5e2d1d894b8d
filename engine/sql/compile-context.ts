/**
 * What every part of the expression compiler shares: the compile context (the user's text, for
 * error positions, and the columns read), building and folding a Compiled, and the operand checks.
 * compile.ts dispatches on the AST; operators.ts and cast.ts build on these helpers without
 * importing the dispatcher (operators.ts gets it passed in to compile its operands).
 */
import { ExpressionError } from './errors.ts';
import type { Token } from './lexer.ts';
import type { ColumnTypes, Compiled, Evaluator, Row, SqlAst, SqlType } from './types.ts';

export interface CompileContext {
  /** The user's text and its tokens, for error positions. */
  text: string;
  tokens: Token[];
  /** Offset of the item being compiled, the fallback error position. */
  itemStart: number;
  /** What aggregates are called in this place, for the error message; null where they are allowed. */
  noAggregatesIn: string;
  /** Referenced columns, in order of first appearance. */
  columns: string[];
  /** 0-based offset in the user's text of a node with a parser location, or -1. */
  offsetOf: (node: SqlAst) => number;
  /** Static types of input columns, where the job tells them. */
  columnTypes?: ColumnTypes;
}

const EMPTY_ROW: Row = Object.freeze({});

/**
 * Builds a Compiled, folding it to a constant when all its inputs are constant. A constant that
 * fails to evaluate (`1 / 0`) is left to the rows, as Flink's ExpressionReducer leaves what it
 * cannot reduce: the job then fails on its first record with the runtime error, as it does for the
 * same error over a column, instead of the compiler throwing it.
 */
export function make(fn: Evaluator, type: SqlType, inputs: readonly Compiled[]): Compiled {
  if (inputs.every((c) => c.constant)) {
    try {
      return constant(fn(EMPTY_ROW), type);
    } catch {
      return { fn, type, constant: false };
    }
  }
  return { fn, type, constant: false };
}

export function constant(value: unknown, type: SqlType): Compiled {
  const v = value === undefined ? null : value;
  return { fn: () => v, type, constant: true };
}

/** 1-based column of a node: its parser location, else the first token spelled `hint`, else the item. */
export function columnOf(ctx: CompileContext, node: SqlAst | null, hint?: string): number {
  const off = node ? ctx.offsetOf(node) : -1;
  if (off >= 0) return off + 1;
  if (hint) {
    const h = hint.toUpperCase();
    const t =
      ctx.tokens.find((x) => x.start >= ctx.itemStart && x.upper === h) ?? ctx.tokens.find((x) => x.upper === h);
    if (t) return t.start + 1;
  }
  return ctx.itemStart + 1;
}

export function fail(ctx: CompileContext, message: string, node: SqlAst | null, hint?: string): never {
  throw new ExpressionError(message, columnOf(ctx, node, hint));
}

export function requireBoolean(ctx: CompileContext, c: Compiled, op: string, node: SqlAst): void {
  if (!isMaybeBoolean(c)) fail(ctx, `${op} expects a boolean operand, not ${describeType(c)}`, node, op);
}

export function isMaybeBoolean(c: Compiled): boolean {
  return c.type === 'BOOLEAN' || (c.type === 'UNKNOWN' && !c.numeric);
}

export function describeType(c: Compiled): string {
  return c.type === 'UNKNOWN' && c.numeric ? 'a number' : c.type;
}

/** A static type as Flink prints it in "Cannot apply" messages: INT, BIGINT, DECIMAL(10, 2), STRING... */
export function flinkTypeName(c: Pick<Compiled, 'type' | 'precision' | 'scale' | 'numeric'>): string {
  if (c.type === 'BIGINT') return c.precision === 10 ? 'INT' : 'BIGINT';
  if (c.type === 'DECIMAL' && c.precision !== undefined) return `DECIMAL(${c.precision}, ${c.scale ?? 0})`;
  if (c.type === 'TIMESTAMP') return 'TIMESTAMP(3)';
  if (c.type === 'UNKNOWN') return c.numeric ? 'NUMERIC' : 'ANY';
  return c.type;
}

const NUMERIC_TYPES: ReadonlySet<SqlType> = new Set(['BIGINT', 'DECIMAL', 'DOUBLE']);

/** Known to be a number type (an UNKNOWN is not known to be anything). */
export function isNumericType(c: Compiled): boolean {
  return NUMERIC_TYPES.has(c.type);
}

/**
 * Flink's refusal of an operator over operands of the wrong types (Calcite's message, without the
 * "Supported form(s)" tail): `Cannot apply '+' to arguments of type '<BIGINT> + <STRING>'`.
 */
export function cannotApplyInfix(ctx: CompileContext, op: string, l: Compiled, r: Compiled, node: SqlAst): never {
  return fail(
    ctx,
    `Cannot apply '${op}' to arguments of type '<${flinkTypeName(l)}> ${op} <${flinkTypeName(r)}>'`,
    node,
    op,
  );
}

/** Marks a result as numeric when its exact type is unknown (a column was involved). */
export function numeric(c: Compiled, decimalFrom?: Compiled): Compiled {
  if (c.type === 'UNKNOWN') c.numeric = true;
  if (decimalFrom && c.type === 'DECIMAL') {
    c.precision = decimalFrom.precision;
    c.scale = decimalFrom.scale;
  }
  // An INT's result stays an INT (-i, ABS(i)).
  if (decimalFrom && c.type === 'BIGINT' && decimalFrom.type === 'BIGINT' && decimalFrom.precision !== undefined)
    c.precision = decimalFrom.precision;
  return c;
}

export function requireNumeric(ctx: CompileContext, c: Compiled, op: string, node: SqlAst): void {
  if (c.type === 'BOOLEAN' || c.type === 'TIMESTAMP') fail(ctx, `'${op}' expects numbers, not ${c.type}`, node, op);
}
