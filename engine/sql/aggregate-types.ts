/**
 * The argument types of an aggregate list, checked as Flink checks them: SUM, AVG and the
 * statistical aggregates take numbers only (Calcite's `OperandTypes.NUMERIC`), so SUM over a
 * STRING column is refused before the run, not summed to NULL. COUNT, MIN and MAX take any
 * comparable type. An argument of unknown type passes. Kept beside aggregates.ts (the catalog of
 * aggregate functions) so that file stays the compiler of the calls.
 */
import { compileExpr } from './compile.ts';
import { flinkTypeName } from './compile-context.ts';
import { contextFor } from './context.ts';
import { ExpressionError } from './errors.ts';
import { extractAggregateFilters } from './aggregate-filters.ts';
import { parseSelectList } from './parse.ts';
import type { ColumnTypes } from './types.ts';

const NUMERIC_ONLY = new Set(['SUM', 'AVG', 'STDDEV_POP', 'STDDEV_SAMP', 'VAR_POP', 'VAR_SAMP']);

/** Throws ExpressionError at the first numeric-only aggregate over a STRING, BOOLEAN or TIMESTAMP. */
export function checkAggregateArgTypes(userText: string, columnTypes: ColumnTypes | undefined): void {
  if (!columnTypes || columnTypes.size === 0) return;
  const { text } = extractAggregateFilters(userText);
  const parsed = parseSelectList(text);
  for (const item of parsed.items) {
    const ast = item.ast;
    const fn = String(ast?.name ?? '').toUpperCase();
    const arg = ast?.args?.expr;
    if (ast?.type !== 'aggr_func' || !NUMERIC_ONLY.has(fn) || !arg || arg.type === 'star') continue;
    const c = compileExpr(arg, contextFor(text, parsed, item, 'an aggregate argument', [], columnTypes));
    if (c.type === 'STRING' || c.type === 'BOOLEAN' || c.type === 'TIMESTAMP') {
      throw new ExpressionError(
        `Cannot apply '${fn}' to arguments of type '${fn}(<${flinkTypeName(c)}>)'. Supported form(s): '${fn}(<NUMERIC>)'`,
        item.start + 1,
      );
    }
  }
}
