import { ExpressionError } from './errors.ts';

/**
 * A small SQL tokenizer over the user's text. The real parsing is node-sql-parser's; these tokens
 * only serve positions: translating parser errors into columns, splitting a select list into its
 * items' source text, and rejecting constructs (subqueries, OVER, ';') before the parser sees them.
 */
export type TokenKind = 'ident' | 'quoted' | 'number' | 'string' | 'dstring' | 'op';

export interface Token {
  kind: TokenKind;
  /** Source text of the token, exactly as written. */
  text: string;
  /** Upper-cased text for identifiers and operators (keyword comparisons). */
  upper: string;
  /** 0-based offsets into the user's text, end exclusive. */
  start: number;
  end: number;
}

const TWO_CHAR_OPS = new Set(['<>', '!=', '<=', '>=', '||', '::']);
const IDENT_START = /[\p{L}_$]/u;
const IDENT_PART = /[\p{L}\p{N}_$]/u;

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  const n = text.length;
  let i = 0;
  const push = (kind: TokenKind, start: number, end: number): void => {
    const t = text.slice(start, end);
    tokens.push({ kind, text: t, upper: kind === 'ident' || kind === 'op' ? t.toUpperCase() : t, start, end });
  };
  while (i < n) {
    const c = text[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f') {
      i++;
      continue;
    }
    if (c === '-' && text[i + 1] === '-') {
      while (i < n && text[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      if (close < 0) throw new ExpressionError('unterminated comment', i + 1);
      i = close + 2;
      continue;
    }
    if (c === "'" || c === '"' || c === '`') {
      const start = i;
      i++;
      for (;;) {
        if (i >= n) {
          const what = c === '`' ? 'quoted identifier' : 'string literal';
          throw new ExpressionError(`unterminated ${what}`, start + 1);
        }
        if (text[i] === c) {
          if (text[i + 1] === c) {
            i += 2;
            continue;
          } // doubled quote escapes itself
          i++;
          break;
        }
        i++;
      }
      push(c === "'" ? 'string' : c === '"' ? 'dstring' : 'quoted', start, i);
      continue;
    }
    if ((c >= '0' && c <= '9') || (c === '.' && text[i + 1] >= '0' && text[i + 1] <= '9')) {
      const start = i;
      while (i < n && ((text[i] >= '0' && text[i] <= '9') || text[i] === '.')) i++;
      if ((text[i] === 'e' || text[i] === 'E') && /[-+]?\d/.test(text.slice(i + 1, i + 3))) {
        i += text[i + 1] === '-' || text[i + 1] === '+' ? 2 : 1;
        while (i < n && text[i] >= '0' && text[i] <= '9') i++;
      }
      push('number', start, i);
      continue;
    }
    if (IDENT_START.test(c)) {
      const start = i;
      i++;
      while (i < n && IDENT_PART.test(text[i])) i++;
      push('ident', start, i);
      continue;
    }
    const two = text.slice(i, i + 2);
    if (TWO_CHAR_OPS.has(two)) {
      push('op', i, i + 2);
      i += 2;
      continue;
    }
    push('op', i, i + 1);
    i++;
  }
  return tokens;
}

/** Index ranges [from, to) of the tokens of each top-level comma-separated item. */
export function splitTopLevel(tokens: Token[]): Array<[number, number]> {
  const items: Array<[number, number]> = [];
  let depth = 0;
  let from = 0;
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k];
    if (t.kind !== 'op') continue;
    if (t.text === '(') depth++;
    else if (t.text === ')') depth--;
    else if (t.text === ',' && depth === 0) {
      items.push([from, k]);
      from = k + 1;
    }
  }
  items.push([from, tokens.length]);
  return items;
}
