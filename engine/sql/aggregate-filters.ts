/**
 * `agg(...) FILTER (WHERE cond)` in aggregate lists (Flink SQL; Nexmark q15-q17). node-sql-parser
 * does not know the clause, so it is cut out of the text before parsing: each clause is replaced by
 * spaces of the same length (every column position in the rest of the text stays the user's), and
 * its condition is compiled on its own with columns reported in the user's text.
 */
import { ExpressionError } from './errors.ts';
import { tokenize } from './lexer.ts';
import { compileConditionDetailed } from './condition.ts';
import type { Row } from './types.ts';

export interface AggregateFilter {
  /** 0-based offset of the `FILTER` keyword in the user's text. */
  start: number;
  end: number;
  /** Condition text as written. */
  where: string;
  test: (row: Row) => boolean;
  columns: string[];
}

/** The text with every FILTER clause blanked, and the clauses in text order. */
export function extractAggregateFilters(text: string): { text: string; filters: AggregateFilter[] } {
  if (typeof text !== 'string' || !/\bFILTER\b/i.test(text)) return { text, filters: [] };
  const tokens = tokenize(text);
  const filters: AggregateFilter[] = [];
  let out = text;
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k];
    if (t.kind !== 'ident' || t.upper !== 'FILTER') continue;
    const open = tokens[k + 1];
    const where = tokens[k + 2];
    if (!open || open.text !== '(' || !where || where.upper !== 'WHERE') {
      throw new ExpressionError("expected '(WHERE condition)' after FILTER", t.start + 1);
    }
    let depth = 1;
    let j = k + 2;
    while (++j < tokens.length) {
      if (tokens[j].text === '(') depth++;
      else if (tokens[j].text === ')' && --depth === 0) break;
    }
    if (j >= tokens.length) throw new ExpressionError("missing ')' after the FILTER condition", t.start + 1);
    const condStart = where.end;
    const condEnd = tokens[j].start;
    const cond = text.slice(condStart, condEnd);
    if (cond.trim() === '') throw new ExpressionError('expected a condition after FILTER (WHERE', where.end + 1);
    // Compile the condition padded so that its error columns count in the user's whole text.
    const padded = ' '.repeat(condStart) + cond;
    const c = compileConditionDetailed(padded);
    filters.push({ start: t.start, end: tokens[j].end, where: cond.trim(), test: c.test, columns: c.columns });
    out = out.slice(0, t.start) + ' '.repeat(tokens[j].end - t.start) + out.slice(tokens[j].end);
    k = j;
  }
  return { text: out, filters };
}
