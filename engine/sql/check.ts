import { compileAggregates } from './aggregates.ts';
import { extractAggregateFilters } from './aggregate-filters.ts';
import { compileConditionDetailed } from './condition.ts';
import { ExpressionError } from './errors.ts';
import { parseSelectList, type ParsedItem } from './parse.ts';
import { compileProjectionDetailed, parseKeyBy } from './projection.ts';
import type { ColumnTypes, ExpressionKind } from './types.ts';
import { checkAggregateArgTypes } from './aggregate-types.ts';
import { compileExpr } from './compile.ts';
import { contextFor } from './context.ts';
import { compileOrderBy } from './order-by.ts';

/**
 * Compiles `text` as `kind` and returns the error, or null when it is valid. Never throws. With
 * `types` (the input columns' static types) type errors are found too, as Flink's validator finds
 * them: a STRING in arithmetic, a BIGINT condition, UPPER of a BIGINT, SUM of a STRING.
 */
export function checkExpression(kind: ExpressionKind, text: string, types?: ColumnTypes): ExpressionError | null {
  try {
    compileKind(kind, text, types);
    return null;
  } catch (e) {
    if (e instanceof ExpressionError) return e;
    // Anything else is a bug here, but the designer must still get a message, not a crash.
    return new ExpressionError(`could not compile the expression: ${(e as Error)?.message ?? String(e)}`, 1);
  }
}

function compileKind(kind: ExpressionKind, text: string, types?: ColumnTypes): void {
  switch (kind) {
    case 'where':
      compileConditionDetailed(text, types);
      return;
    case 'select':
      compileProjectionDetailed(text, types);
      return;
    case 'keyBy':
      parseKeyBy(text);
      return;
    case 'aggregates':
      compileAggregates(text, types);
      checkAggregateArgTypes(text, types);
      return;
    case 'orderBy':
      compileOrderBy(text, types);
      return;
  }
}

/**
 * Input columns the text reads, in order of first appearance (without `*`). Returns [] when the
 * text does not compile; use checkExpression for the error.
 */
export function referencedColumns(kind: ExpressionKind, text: string): string[] {
  try {
    switch (kind) {
      case 'where':
        return compileConditionDetailed(text).columns;
      case 'select':
        return compileProjectionDetailed(text).referenced;
      case 'keyBy':
        return parseKeyBy(text).columns;
      case 'aggregates': {
        const calls = compileAggregates(text);
        const parsed = parseSelectList(extractAggregateFilters(text).text);
        const { items } = parsed;
        const columns: string[] = [];
        for (const item of items) {
          // STDDEV_POP(x) and the other aggregates the parser does not know come as function calls.
          const arg = item.ast.args?.expr ?? (item.ast.type === 'function' ? item.ast.args?.value?.[0] : undefined);
          if (arg && arg.type !== 'star')
            compileExpr(arg, contextFor(text, parsed, item, 'an aggregate argument', columns));
        }
        for (const c of calls) for (const col of c.filterColumns) if (!columns.includes(col)) columns.push(col);
        return columns;
      }
      case 'orderBy':
        return compileOrderBy(text).columns;
    }
  } catch (e) {
    if (e instanceof ExpressionError) return [];
    throw e;
  }
}

/**
 * The parsed form of an expression, for the Flink SQL exporter and other tools: one item per
 * list entry (`where` has exactly one, an empty `keyBy` none). Each item holds node-sql-parser's
 * AST (flinksql dialect) with SQL precedence restored (see precedence.ts), its alias and its exact
 * source text. The text is validated first, so invalid text throws ExpressionError. The user's
 * text is already Flink SQL: an exporter can reuse `item.text`, quoting reserved column names.
 */
export function parseExpressionAst(kind: ExpressionKind, text: string): ParsedItem[] {
  compileKind(kind, text);
  if (kind === 'keyBy' && typeof text === 'string' && text.trim() === '') return [];
  if (kind === 'aggregates') {
    // FILTER clauses are cut out before parsing; each item carries its own condition text.
    const { text: bare, filters } = extractAggregateFilters(text);
    const items = parseSelectList(bare).items;
    return items.map((item, i) => {
      const end = i + 1 < items.length ? items[i + 1].start : bare.length;
      const f = filters.find((x) => x.start >= item.start && x.start < end);
      return f ? { ...item, filter: f.where } : item;
    });
  }
  return parseSelectList(text).items;
}
