/**
 * Flink's keyword-syntax calls, rewritten into plain calls before node-sql-parser sees the text
 * (its grammar knows none of them, or reads the keywords as columns):
 *
 *   TRIM([BOTH | LEADING | TRAILING] [chars] FROM s)  ->  TRIM('BOTH', chars, s)   (chars: ' ')
 *   POSITION(a IN b)                                 ->  POSITION(a, b)
 *   OVERLAY(s PLACING r FROM p [FOR n])              ->  OVERLAY(s, r, p[, n])
 *   EXTRACT(unit FROM ts)                            ->  EXTRACT('UNIT', ts)
 *   TIMESTAMPDIFF(unit, a, b), TIMESTAMPADD(unit, n, ts)  ->  the unit as a string literal
 *   JSON_OBJECT([KEY] k VALUE v, ...)                ->  JSON_OBJECT(k, v, ...)
 *   x IS [NOT] JSON [VALUE | SCALAR | ARRAY | OBJECT]  ->  [NOT] IS_JSON(x, 'VALUE')
 *
 * The clauses Weir does not implement (JSON_VALUE's RETURNING and ON EMPTY / ON ERROR, JSON_QUERY's
 * wrappers, a non-default ON NULL, a JSON constructor nested in another) are refused here with a
 * message at their position. Offsets in the rewritten text map back to the user's (`toOriginal`),
 * so every error still points into what the user wrote, and the items keep the user's own text.
 */
import { ExpressionError } from './errors.ts';
import { tokenize, type Token } from './lexer.ts';

export interface Rewritten {
  text: string;
  /**
   * Offset in the user's text of an offset in the rewritten text; inside inserted text, the start
   * of what it replaced (or its end, for `end` offsets such as an item's end).
   */
  toOriginal(offset: number, end?: boolean): number;
}

interface Edit {
  start: number;
  end: number;
  insert: string;
}

const TRIM_MODES = new Set(['BOTH', 'LEADING', 'TRAILING']);
const JSON_TYPES = new Set(['VALUE', 'SCALAR', 'ARRAY', 'OBJECT']);
/** Words that open a JSON_VALUE / JSON_QUERY / JSON_EXISTS clause (`... ON EMPTY`, `... ON ERROR` aside). */
const JSON_CLAUSE_WORDS = new Set(['RETURNING', 'WITH', 'WITHOUT']);
const JSON_CONSTRUCTORS = new Set(['JSON_OBJECT', 'JSON_ARRAY']);

/** Index of the ')' matching the '(' at `open`, or -1. */
function closing(tokens: Token[], open: number): number {
  let depth = 0;
  for (let k = open; k < tokens.length; k++) {
    if (tokens[k].kind !== 'op') continue;
    if (tokens[k].text === '(') depth++;
    else if (tokens[k].text === ')' && --depth === 0) return k;
  }
  return -1;
}

/** Indexes of the tokens directly inside the call whose '(' is at `open` (nested calls skipped). */
function topLevel(tokens: Token[], open: number, close: number): number[] {
  const out: number[] = [];
  let depth = 0;
  for (let k = open + 1; k < close; k++) {
    const t = tokens[k];
    if (depth === 0) out.push(k);
    if (t.kind === 'op' && t.text === '(') depth++;
    else if (t.kind === 'op' && t.text === ')') depth--;
  }
  return out;
}

const isWord = (t: Token | undefined, word: string): boolean => t?.kind === 'ident' && t.upper === word;

export function rewriteSpecialForms(text: string): Rewritten {
  const tokens = tokenize(text);
  const edits: Edit[] = [];
  const replace = (t: Token, insert: string): void => void edits.push({ start: t.start, end: t.end, insert });
  const insertAt = (offset: number, insert: string): void => void edits.push({ start: offset, end: offset, insert });

  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k];
    if (t.kind !== 'ident') continue;
    if (t.upper === 'IS') {
      isJson(tokens, k, edits);
      continue;
    }
    if (tokens[k + 1]?.text !== '(' || tokens[k - 1]?.text === '.') continue;
    const open = k + 1;
    const close = closing(tokens, open);
    if (close < 0) continue; // the parser reports the missing ')'
    const inner = topLevel(tokens, open, close);
    const at = (word: string): number => inner.find((i) => isWord(tokens[i], word)) ?? -1;
    switch (t.upper) {
      case 'TRIM': {
        const from = at('FROM');
        if (from < 0) break;
        const first = tokens[inner[0]];
        const hasMode = TRIM_MODES.has(first.upper) && first.kind === 'ident';
        if (hasMode) replace(first, `'${first.upper}',`);
        else insertAt(first.start, "'BOTH', ");
        const charsGiven = from > (hasMode ? inner[0] + 1 : inner[0]);
        replace(tokens[from], charsGiven ? ',' : "' ',");
        break;
      }
      case 'POSITION': {
        const i = at('IN');
        if (i >= 0) replace(tokens[i], ',');
        break;
      }
      case 'OVERLAY':
        for (const word of ['PLACING', 'FROM', 'FOR']) {
          const i = at(word);
          if (i >= 0) replace(tokens[i], ',');
        }
        break;
      case 'EXTRACT': {
        const from = at('FROM');
        const unit = tokens[inner[0]];
        if (from === inner[0] + 1 && unit.kind === 'ident') {
          replace(unit, `'${unit.upper}'`);
          replace(tokens[from], ',');
        }
        break;
      }
      case 'TIMESTAMPDIFF':
      case 'TIMESTAMPADD': {
        const unit = tokens[inner[0]];
        if (unit?.kind === 'ident' && tokens[inner[0] + 1]?.text === ',') replace(unit, `'${unit.upper}'`);
        break;
      }
      case 'JSON_OBJECT':
      case 'JSON_ARRAY':
        jsonConstructor(tokens, t, inner, edits);
        break;
      case 'JSON_VALUE':
      case 'JSON_QUERY':
      case 'JSON_EXISTS': {
        const onWhat = (i: number): boolean =>
          isWord(tokens[i + 1], 'ON') && (isWord(tokens[i + 2], 'EMPTY') || isWord(tokens[i + 2], 'ERROR'));
        const clause = inner.find(
          (i) => tokens[i].kind === 'ident' && (JSON_CLAUSE_WORDS.has(tokens[i].upper) || onWhat(i)),
        );
        if (clause !== undefined) {
          throw new ExpressionError(
            `${t.upper}'s ${tokens[clause].text.toUpperCase()} clause is not supported in Weir: write ${t.upper}(json, path) (NULL on empty or error) and CAST the result`,
            tokens[clause].start + 1,
          );
        }
        break;
      }
    }
  }
  return apply(text, edits);
}

/** JSON_OBJECT's KEY / VALUE keywords, and the ON NULL clause where it is the default. */
function jsonConstructor(tokens: Token[], call: Token, inner: number[], edits: Edit[]): void {
  for (const i of inner) {
    const t = tokens[i];
    if (JSON_CONSTRUCTORS.has(t.upper) && tokens[i + 1]?.text === '(') {
      throw new ExpressionError(
        `a ${t.upper} inside ${call.upper} is not supported in Weir (Flink nests it as JSON, Weir would quote it as a string)`,
        t.start + 1,
      );
    }
    if (call.upper === 'JSON_OBJECT' && t.kind === 'ident' && (t.upper === 'KEY' || t.upper === 'VALUE')) {
      edits.push({ start: t.start, end: t.end, insert: t.upper === 'KEY' ? '' : ',' });
    }
    if (
      isWord(t, 'ON') &&
      isWord(tokens[i + 1], 'NULL') &&
      (isWord(tokens[i - 1], 'NULL') || isWord(tokens[i - 1], 'ABSENT'))
    ) {
      const mode = tokens[i - 1].upper;
      const isDefault = call.upper === 'JSON_OBJECT' ? mode === 'NULL' : mode === 'ABSENT';
      if (!isDefault)
        throw new ExpressionError(`${call.upper}'s ${mode} ON NULL is not supported in Weir`, tokens[i - 1].start + 1);
      edits.push({ start: tokens[i - 1].start, end: tokens[i + 1].end, insert: '' });
    }
  }
}

/** `x IS [NOT] JSON [type]` -> `[NOT] IS_JSON(x, 'type')`, for an operand that is one token or a (...) group. */
function isJson(tokens: Token[], k: number, edits: Edit[]): void {
  const not = isWord(tokens[k + 1], 'NOT');
  const json = k + (not ? 2 : 1);
  if (!isWord(tokens[json], 'JSON')) return;
  const typeTok = tokens[json + 1];
  const type = typeTok?.kind === 'ident' && JSON_TYPES.has(typeTok.upper) ? typeTok.upper : null;
  const last = type ? json + 1 : json;
  // The operand: one token, or a parenthesized group (with the function name before it).
  let first = k - 1;
  if (first < 0) return;
  if (tokens[first].text === ')') {
    let depth = 0;
    for (; first >= 0; first--) {
      if (tokens[first].text === ')') depth++;
      else if (tokens[first].text === '(' && --depth === 0) break;
    }
    if (first > 0 && tokens[first - 1].kind === 'ident') first--;
  }
  if (first < 0 || (tokens[first].kind === 'op' && tokens[first].text !== '(')) {
    throw new ExpressionError('IS JSON: put its operand in parentheses, e.g. (a || b) IS JSON', tokens[k].start + 1);
  }
  edits.push({ start: tokens[first].start, end: tokens[first].start, insert: `${not ? 'NOT ' : ''}IS_JSON(` });
  edits.push({ start: tokens[k - 1].end, end: tokens[last].end, insert: `, '${type ?? 'VALUE'}')` });
}

function apply(text: string, edits: Edit[]): Rewritten {
  if (edits.length === 0) return { text, toOriginal: (o) => o };
  edits.sort((a, b) => a.start - b.start || a.end - b.end);
  let out = '';
  let pos = 0;
  // Unchanged spans: where each starts in the rewritten and in the user's text, and its length;
  // `after` is the edit that follows it (an offset inside its insert maps to its ends).
  const spans: Array<{ out: number; orig: number; len: number; after: Edit | null }> = [];
  for (const e of edits) {
    spans.push({ out: out.length, orig: pos, len: e.start - pos, after: e });
    out += text.slice(pos, e.start) + e.insert;
    pos = e.end;
  }
  spans.push({ out: out.length, orig: pos, len: text.length - pos, after: null });
  out += text.slice(pos);
  return {
    text: out,
    toOriginal(offset, end = false) {
      let span = spans[0];
      for (const sp of spans) if (sp.out <= offset) span = sp;
      const within = offset - span.out;
      if (within <= span.len || span.after === null) return Math.min(span.orig + within, text.length);
      return end ? span.after.end : span.after.start;
    },
  };
}
