/**
 * The columns each node emits and the real SQL expression checker behind them, apart from
 * validate.ts so a task process (the Postgres sink's input columns) gets them without the job
 * schema (zod). validate.ts re-exports both.
 */
import type { JobDocument, JobProblem } from './types.ts';
import type { ExpressionChecker } from './expressions.ts';
import type { ColumnTypeOptions } from './column-types.ts';
import { checkGraph } from './check-graph.ts';
import { checkColumns, type NodeColumns } from './check-columns.ts';
import {
  checkExpression,
  compileAggregates,
  compileProjectionDetailed,
  parseKeyBy,
  referencedColumns,
} from '../sql/index.ts';

/** The real expression compiler as an ExpressionChecker (the designer wraps it in a cache). */
export const sqlExpressionChecker: Required<ExpressionChecker> = {
  checkExpression: (kind, text, types) => checkExpression(kind, text, types),
  referencedColumns: (kind, text) => referencedColumns(kind, text),
  outputColumns: (kind, text, input) => {
    if (kind === 'keyBy') return parseKeyBy(text).columns;
    if (kind === 'aggregates') return compileAggregates(text).map((a) => a.alias);
    const p = compileProjectionDetailed(text);
    if (p.columns) return p.columns.map((c) => c.name);
    // `*` passes the input through; explicit columns next to it are added (or replace one).
    if (!input) return null;
    return [...input, ...p.extra.map((c) => c.name).filter((n) => !input.includes(n))];
  },
};

/**
 * The columns each node emits, as far as they are known before reading data (for column hints in
 * the designer and for exporters). Nodes on a cycle are absent; unknown columns are null.
 * Expects a schema-valid document.
 */
export function nodeColumns(
  doc: JobDocument,
  expressions: ExpressionChecker = sqlExpressionChecker,
  sampled?: ColumnTypeOptions['sampled'],
): NodeColumns {
  const scratch: JobProblem[] = [];
  return checkColumns(doc, checkGraph(doc, scratch), expressions, scratch, sampled);
}
