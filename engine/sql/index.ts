/**
 * Weir's SQL expression layer: Flink SQL snippets from node configs (`filter.where`, `map.select`,
 * `window.keyBy`, `window.aggregates`) parsed with node-sql-parser (flinksql dialect) and compiled
 * once into closures over rows. Browser-safe: no Node built-ins, the designer uses it for inline
 * errors. Semantics and chosen behaviours are listed in README.md next to this file.
 */
import { compileConditionDetailed } from './condition.ts';
import { compileProjectionDetailed, type ProjectionColumn } from './projection.ts';
import type { Row } from './types.ts';

export type { Row, SqlType, ExpressionKind, ColumnType, ColumnTypes, SqlAst } from './types.ts';
export { ExpressionError, SqlRuntimeError } from './errors.ts';
export type { ProjectionColumn, CompiledProjection, KeyBy } from './projection.ts';
export { parseKeyBy, compileProjectionDetailed } from './projection.ts';
export type { AggregateFn, AggregateCall, Accumulator } from './aggregates.ts';
export { compileAggregates, accumulatorFor } from './aggregates.ts';
export { retractingAccumulatorFor, type RetractingAccumulator } from './retract-aggregates.ts';
export { checkExpression, referencedColumns, parseExpressionAst } from './check.ts';
export type { ParsedItem } from './parse.ts';
export { compileConditionDetailed } from './condition.ts';
export { flinkTypeName } from './compile-context.ts';

/** Compiles a `filter.where` condition; NULL counts as false. Throws ExpressionError. */
export function compileCondition(text: string): (row: Row) => boolean {
  return compileConditionDetailed(text).test;
}

/** Compiles a `map.select` list. `columns` is null when `*` passes the input columns through. */
export function compileProjection(text: string): { columns: ProjectionColumn[] | null; project: (row: Row) => Row } {
  const p = compileProjectionDetailed(text);
  return { columns: p.columns, project: p.project };
}
