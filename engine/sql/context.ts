import type { CompileContext } from './compile-context.ts';
import type { ParsedItem, ParsedSelectList } from './parse.ts';
import type { ColumnTypes } from './types.ts';

/** A fresh compile context for one item of a parsed list. */
export function contextFor(
  text: string,
  parsed: ParsedSelectList,
  item: ParsedItem,
  noAggregatesIn: string,
  columns: string[],
  columnTypes?: ColumnTypes,
): CompileContext {
  return {
    text,
    tokens: parsed.tokens,
    itemStart: item.start,
    noAggregatesIn,
    columns,
    offsetOf: parsed.offsetOf,
    columnTypes,
  };
}
