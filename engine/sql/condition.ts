import { compileExpr } from './compile.ts';
import { describeType, isMaybeBoolean } from './compile-context.ts';
import { contextFor } from './context.ts';
import { ExpressionError } from './errors.ts';
import { parseSelectList } from './parse.ts';
import type { ColumnTypes, Compiled, Row } from './types.ts';
import { toBool } from './values.ts';

export interface CompiledCondition {
  test: (row: Row) => boolean;
  columns: string[];
}

/** Compiles a `filter.where` condition. A NULL (UNKNOWN) result counts as false, as in SQL. */
export function compileConditionDetailed(text: string, columnTypes?: ColumnTypes): CompiledCondition {
  const parsed = parseSelectList(text);
  const { items, tokens } = parsed;
  if (items.length > 1) throw new ExpressionError("unexpected ','", items[1].start);
  const item = items[0];
  if (item.alias !== null) {
    throw new ExpressionError(`unexpected '${tokens[tokens.length - 1].text}'`, tokens[tokens.length - 1].start + 1);
  }
  if (item.star) throw new ExpressionError("'*' is not a condition", item.start + 1);
  const columns: string[] = [];
  const c: Compiled = compileExpr(item.ast, contextFor(text, parsed, item, 'a filter condition', columns, columnTypes));
  if (!isMaybeBoolean(c)) {
    throw new ExpressionError(`the condition must be a boolean expression, not ${describeType(c)}`, item.start + 1);
  }
  const f = c.fn;
  const test = c.constant
    ? toBool(f({})) === true
      ? () => true
      : () => false
    : (row: Row): boolean => {
        const v = f(row);
        return v === true || (v !== false && v !== null && toBool(v) === true);
      };
  return { test, columns };
}
