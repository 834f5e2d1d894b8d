import type { CompileContext } from './compile.ts';
import type { ParsedItem, ParsedSelectList } from './parse.ts';

/** A fresh compile context for one item of a parsed list. */
export function contextFor(text: string, parsed: ParsedSelectList, item: ParsedItem, noAggregatesIn: string, columns: string[]): CompileContext {
  return { text, tokens: parsed.tokens, itemStart: item.start, noAggregatesIn, columns, offsetOf: parsed.offsetOf };
}
