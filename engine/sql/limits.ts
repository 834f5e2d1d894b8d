import { ExpressionError } from './errors.ts';
import { splitTopLevel, type Token } from './lexer.ts';

/**
 * Size limits of one expression text, checked before node-sql-parser sees it. Past them the parser
 * either overflows its recursion (and reports a misleading "unexpected end of expression") or
 * takes exponential time, and a huge string literal is copied per record until V8 gives up
 * ("Invalid string length"). Each refusal names the limit and the measured value.
 */

/** Characters of one expression text (a `where`, `select`, `keyBy` or `aggregates` field). */
export const MAX_EXPRESSION_CHARS = 100_000;

/** Parentheses (groups and calls), CASE ... END and NOTs open at once. Deeper, the parser's recursion overflows. */
export const MAX_NESTING_DEPTH = 64;

/**
 * Function calls and CASE expressions open at once. node-sql-parser backtracks through every level
 * of them: its time grows about 1.5× per level (16 nested calls take ~3 s, 20 take ~15 s).
 */
export const MAX_CALL_NESTING = 12;

/** Keywords before a parenthesised operand: `a AND (b OR c)` is a group, not a call. */
const OPERAND_KEYWORDS = new Set(['AND', 'OR', 'IN', 'WHEN', 'THEN', 'ELSE', 'LIKE', 'BETWEEN', 'IS']);

/**
 * Tokens of one item (one expression of a list). A chain `a + b + c ...` nests one level per
 * operator in the tree the compiler walks recursively; at ~2,500 operators it overflows the stack.
 */
export const MAX_ITEM_TOKENS = 2_000;

const group = (n: number): string => n.toLocaleString('en-US');

/** Refuses a text longer than MAX_EXPRESSION_CHARS, before it is tokenized. */
export function checkTextLength(text: string): void {
  if (text.length > MAX_EXPRESSION_CHARS) {
    throw new ExpressionError(
      `expression text is ${group(text.length)} characters long; at most ${group(MAX_EXPRESSION_CHARS)}`,
      MAX_EXPRESSION_CHARS + 1,
    );
  }
}

function tooDeep(t: Token): ExpressionError {
  return new ExpressionError(
    `expression nested more than ${MAX_NESTING_DEPTH} deep (parentheses, CASE, NOT); at most ${MAX_NESTING_DEPTH}`,
    t.start + 1,
  );
}

/** Refuses nesting past MAX_NESTING_DEPTH or MAX_CALL_NESTING, at the token that goes too deep. */
export function checkNesting(tokens: Token[]): void {
  // One entry per open level: true for a call or CASE (costly to the parser), false for a group.
  const open: boolean[] = [];
  let calls = 0;
  let unaryRun = 0; // `NOT NOT NOT x` nests as deep as parentheses do
  tokens.forEach((t, k) => {
    const unary = t.kind === 'ident' ? t.upper === 'NOT' : t.kind === 'op' && (t.text === '-' || t.text === '+');
    const prevOperator = k === 0 || unaryRun > 0 || tokens[k - 1].kind === 'op';
    unaryRun = unary && (t.upper === 'NOT' || prevOperator) ? unaryRun + 1 : 0;
    if (open.length + unaryRun > MAX_NESTING_DEPTH) throw tooDeep(t);
    const isCase = t.kind === 'ident' && t.upper === 'CASE';
    const isParen = t.kind === 'op' && t.text === '(';
    if (isCase || isParen) {
      const prev = tokens[k - 1];
      const costly = isCase || (prev?.kind === 'ident' && !OPERAND_KEYWORDS.has(prev.upper));
      open.push(costly);
      if (costly) calls++;
      if (open.length + unaryRun > MAX_NESTING_DEPTH) throw tooDeep(t);
      if (calls > MAX_CALL_NESTING) {
        throw new ExpressionError(
          `function calls and CASE nested more than ${MAX_CALL_NESTING} deep; at most ${MAX_CALL_NESTING}`,
          t.start + 1,
        );
      }
      return;
    }
    const closes = (t.kind === 'op' && t.text === ')') || (t.kind === 'ident' && t.upper === 'END');
    if (closes && open.length > 0 && open.pop()) calls--;
  });
}

/** Refuses an item (one comma-separated expression) longer than MAX_ITEM_TOKENS tokens. */
export function checkItemSize(tokens: Token[]): void {
  for (const [from, to] of splitTopLevel(tokens)) {
    if (to - from > MAX_ITEM_TOKENS) {
      throw new ExpressionError(
        `expression has ${group(to - from)} tokens (names, literals, operators); at most ${group(MAX_ITEM_TOKENS)}`,
        tokens[from].start + 1,
      );
    }
  }
}
