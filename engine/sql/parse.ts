import * as flinkParserModule from 'node-sql-parser/build/flinksql.js';
import { ExpressionError } from './errors.ts';
import { checkItemSize, checkNesting, checkTextLength } from './limits.ts';
import { splitTopLevel, tokenize, type Token } from './lexer.ts';
import { fixPrecedence } from './precedence.ts';
import { rewriteSpecialForms } from './special-forms.ts';
import type { SqlAst } from './types.ts';

/**
 * Parsing of the four expression kinds with node-sql-parser's `flinksql` dialect.
 *
 * Every kind is parsed as a select list, `SELECT <text>\nFROM __weir_input__`, even a `where`
 * condition, so that all four share one grammar and one item splitter. node-sql-parser gets AND/OR
 * precedence (and `NOT (x) > 1`) wrong in both grammars; precedence.ts repairs the tree. The
 * newline before FROM ends any `--` comment in the user's text, and the lexer rejects unterminated
 * block comments, so the wrapper cannot be swallowed.
 */

export interface ParsedItem {
  /** node-sql-parser AST of the expression (precedence-correct, see above). */
  ast: SqlAst;
  /** `AS` alias, or null. */
  alias: string | null;
  /** Source text of the expression without its alias, as the user wrote it. */
  text: string;
  /** 0-based offset of the item in the user's text. */
  start: number;
  /** True for `*`. */
  star: boolean;
  /** Aggregate lists only: the condition of the item's `FILTER (WHERE ...)` clause. */
  filter?: string;
}

interface ParserLike {
  astify(sql: string, opt: object): unknown;
}
type ParserCtor = new () => ParserLike;
const parserModule = flinkParserModule as unknown as { Parser?: ParserCtor; default?: { Parser: ParserCtor } };
const Parser: ParserCtor = (parserModule.Parser ?? parserModule.default?.Parser) as ParserCtor;

const PREFIX = 'SELECT ';
const TABLE = '__weir_input__';
const SUFFIX = `\nFROM ${TABLE}`;
const PARSE_OPTIONS = { database: 'flinksql', parseOptions: { includeLocations: true } };

let parser: ParserLike | null = null;

/** Tokens after which an operand must follow: an error right after one means the operand is missing. */
const EXPECTS_OPERAND = new Set([
  '+',
  '-',
  '*',
  '/',
  '%',
  '=',
  '<>',
  '!=',
  '<',
  '<=',
  '>',
  '>=',
  '||',
  '(',
  ',',
  'AND',
  'OR',
  'NOT',
  'LIKE',
  'IN',
  'BETWEEN',
  'IS',
  'CASE',
  'WHEN',
  'THEN',
  'ELSE',
  'ESCAPE',
]);
/** Operators that cannot start an operand: seen right after EXPECTS_OPERAND, the operand is missing. */
const BINARY_ONLY = new Set([
  'AND',
  'OR',
  '=',
  '<>',
  '!=',
  '<',
  '<=',
  '>',
  '>=',
  '||',
  '/',
  '%',
  '*',
  'LIKE',
  'BETWEEN',
  'IS',
  'IN',
]);
const CLAUSE_KEYWORDS = new Set([
  'FROM',
  'WHERE',
  'GROUP',
  'HAVING',
  'ORDER',
  'LIMIT',
  'UNION',
  'EXCEPT',
  'INTERSECT',
  'WINDOW',
  'QUALIFY',
]);

export interface ParsedSelectList {
  items: ParsedItem[];
  tokens: Token[];
  /** 0-based offset in the user's text of an AST node with a parser location, or -1. */
  offsetOf: (node: SqlAst) => number;
}

/**
 * Words the grammar needs bare. Every other bare identifier that is not a function name is sent to
 * the parser in backticks: node-sql-parser (like Flink itself) reserves words such as `user`,
 * `value`, `date` or `count`, which are ordinary column names in Weir's generated and file records.
 */
const KEEP_BARE = new Set([
  'AND',
  'OR',
  'NOT',
  'LIKE',
  'IN',
  'BETWEEN',
  'IS',
  'NULL',
  'TRUE',
  'FALSE',
  'CASE',
  'WHEN',
  'THEN',
  'ELSE',
  'END',
  'CAST',
  'TRY_CAST',
  'AS',
  'ESCAPE',
  'DISTINCT',
  'ALL',
  'FROM',
  'FOR',
  'SELECT',
  'OVER',
  'EXISTS',
  'ANY',
  'SOME',
  'SIMILAR',
  'TO',
  'ARRAY',
  'MAP',
  'ROW',
]);
const TYPED_LITERALS = new Set(['DATE', 'TIME', 'TIMESTAMP', 'INTERVAL']);

interface Rewritten {
  sql: string;
  toUser: (parserOffset: number) => number;
}

/** The parser's input, with reserved words used as column names quoted; maps offsets back. */
function rewriteForParser(text: string, tokens: Token[]): Rewritten {
  let sql = PREFIX;
  let last = 0;
  const inserted: number[] = []; // parser offsets of the backticks added
  let depth = 0;
  tokens.forEach((t, k) => {
    if (t.kind === 'number' && (t.text.startsWith('.') || t.text.endsWith('.'))) {
      throw new ExpressionError(
        `write ${t.text.startsWith('.') ? `0${t.text}` : `${t.text}0`} instead of ${t.text}`,
        t.start + 1,
      );
    }
    if (t.kind === 'op') {
      if (t.text === '::')
        throw new ExpressionError("'::' casts are not Flink SQL: write CAST(x AS type)", t.start + 1);
      if (t.text === '(') depth++;
      else if (t.text === ')') depth--;
      return;
    }
    if (t.kind !== 'ident' || KEEP_BARE.has(t.upper)) return;
    const next = tokens[k + 1];
    const prev = k > 0 ? tokens[k - 1] : undefined;
    if (next?.text === '(') return; // a function name
    if (next?.kind === 'string' && TYPED_LITERALS.has(t.upper)) return; // TIMESTAMP '...'
    if (prev?.upper === 'AS' && depth > 0) return; // CAST(x AS INT): a type, never an alias
    sql += text.slice(last, t.start);
    inserted.push(sql.length);
    sql += `\`${t.text}\``;
    inserted.push(sql.length - 1);
    last = t.end;
  });
  sql += text.slice(last) + SUFFIX;
  const toUser = (offset: number): number => {
    let shift = 0;
    for (const pos of inserted) if (pos < offset) shift++;
    return offset - PREFIX.length - shift;
  };
  return { sql, toUser };
}

/** Parses `text` as a select list. Throws ExpressionError with a column in `text`. */
export function parseSelectList(text: string): ParsedSelectList {
  // Configs come from JSON: guard against a number or null where text belongs.
  if (typeof text !== 'string')
    throw new ExpressionError(`expected SQL text, got ${text === null ? 'null' : typeof text}`, 1);
  checkTextLength(text);
  const tokens = tokenize(text);
  if (tokens.length === 0) throw new ExpressionError('expected an expression', 1);
  checkNesting(tokens);
  checkItemSize(tokens);
  precheck(tokens);
  // Keyword forms (TRIM(BOTH ... FROM ...), EXTRACT, IS JSON...) become plain calls first; offsets
  // of the rewritten text (`rw`, `rwTokens`) map back to the user's with `orig`.
  const rw = rewriteSpecialForms(text);
  const rwTokens = rw.text === text ? tokens : tokenize(rw.text);
  const orig = rw.toOriginal;
  const { sql, toUser } = rewriteForParser(rw.text, rwTokens);
  let ast: unknown;
  try {
    parser ??= new Parser();
    ast = parser.astify(sql, PARSE_OPTIONS);
  } catch (e) {
    const err = translateParserError(e, rw.text, rwTokens, toUser);
    throw rw.text === text ? err : new ExpressionError(err.detail, orig(err.column - 1) + 1);
  }
  const select = (Array.isArray(ast) ? (ast.length === 1 ? ast[0] : null) : ast) as SqlAst | null;
  if (
    !select ||
    select.type !== 'select' ||
    !isOnlyOurTable(select) ||
    select.where ||
    select.groupby ||
    select.having ||
    select.orderby ||
    select.limit ||
    select.distinct ||
    select.with
  ) {
    throw new ExpressionError('unexpected text after the expression', firstClauseColumn(tokens));
  }
  const columns: SqlAst[] = select.columns;
  const ranges = splitTopLevel(rwTokens);
  if (ranges.length !== columns.length) {
    // Defensive: the lexer and the parser disagree about the item boundaries.
    throw new ExpressionError('could not split the list into items', 1);
  }
  const items = columns.map((col, k): ParsedItem => {
    const [from, to] = ranges[k];
    const alias: string | null =
      typeof col.as === 'string' ? col.as : col.as == null ? null : String(col.as?.value ?? col.as);
    let exprTo = to;
    if (alias !== null && to - from >= 2) {
      exprTo = to - 1;
      if (rwTokens[exprTo - 1].upper === 'AS' && rwTokens[exprTo - 1].kind === 'ident') exprTo--;
    }
    const start = orig(rwTokens[from].start);
    const exprText = exprTo > from ? text.slice(start, orig(rwTokens[exprTo - 1].end, true)) : '';
    const expr = fixPrecedence(col.expr as SqlAst);
    const star = expr.type === 'column_ref' && expr.column === '*';
    return { ast: expr, alias, text: exprText, start, star };
  });
  const offsetOf = (node: SqlAst): number => {
    const off = node?.loc?.start?.offset;
    return typeof off === 'number' ? orig(toUser(off)) : -1;
  };
  return { items, tokens, offsetOf };
}

function isOnlyOurTable(select: SqlAst): boolean {
  const from = select.from;
  return Array.isArray(from) && from.length === 1 && from[0].table === TABLE && !from[0].join && !from[0].as;
}

/** Rejects what the parser would accept or misreport but Weir does not support, with a position. */
function precheck(tokens: Token[]): void {
  let depth = 0;
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k];
    checkMissingOperand(k > 0 ? tokens[k - 1] : null, t);
    if (t.kind === 'number' && (t.text.startsWith('.') || t.text.endsWith('.'))) {
      throw new ExpressionError(
        `write ${t.text.startsWith('.') ? `0${t.text}` : `${t.text}0`} instead of ${t.text}`,
        t.start + 1,
      );
    }
    if (t.kind === 'op') {
      if (t.text === '::')
        throw new ExpressionError("'::' casts are not Flink SQL: write CAST(x AS type)", t.start + 1);
      if (t.text === '(') depth++;
      else if (t.text === ')') {
        if (--depth < 0) throw new ExpressionError("unexpected ')'", t.start + 1);
      } else if (t.text === ';') throw new ExpressionError("unexpected ';'", t.start + 1);
      continue;
    }
    if (t.kind === 'dstring') {
      throw new ExpressionError(
        `double quotes are not valid in Flink SQL: write 'text' for a string or \`name\` for a column`,
        t.start + 1,
      );
    }
    if (t.kind === 'quoted' && t.text.slice(1, -1).includes('`')) {
      throw new ExpressionError('a backtick inside a quoted name is not supported', t.start + 1);
    }
    if (t.kind !== 'ident') continue;
    if (t.upper === 'SELECT') throw new ExpressionError('subqueries are not supported', t.start + 1);
    if (t.upper === 'INTERVAL' && tokens[k + 1]?.kind === 'string') {
      throw new ExpressionError('INTERVAL values are not supported', t.start + 1);
    }
    if (t.upper === 'OVER') throw new ExpressionError('window functions (OVER) are not supported', t.start + 1);
    const isDistinctFrom = t.upper === 'FROM' && k > 0 && tokens[k - 1].upper === 'DISTINCT';
    if (depth === 0 && CLAUSE_KEYWORDS.has(t.upper) && !isDistinctFrom)
      throw new ExpressionError(`unexpected '${t.text}'`, t.start + 1);
  }
  if (depth > 0) {
    const last = tokens[tokens.length - 1];
    throw new ExpressionError("missing ')'", last.end);
  }
}

function checkMissingOperand(prev: Token | null, t: Token): void {
  if (!BINARY_ONLY.has(t.upper) || t.kind === 'string' || t.kind === 'quoted') return;
  if (t.text === '*' && (prev === null || prev.text === '(' || prev.text === ',')) return; // `*`, COUNT(*)
  if (prev === null) throw new ExpressionError(`expected an expression before '${t.text}'`, t.start + 1);
  if (prev.kind === 'string' || prev.kind === 'quoted' || !EXPECTS_OPERAND.has(prev.upper)) return;
  if (prev.upper === 'NOT' && (t.upper === 'IN' || t.upper === 'LIKE' || t.upper === 'BETWEEN')) return;
  throw new ExpressionError(`expected an expression after '${prev.text}'`, t.start + 1);
}

/** A CASE without END or a BETWEEN without AND, described, or null. */
function unclosedKeyword(tokens: Token[]): string | null {
  let cases = 0;
  let between = false;
  for (const t of tokens) {
    if (t.kind !== 'ident') continue;
    if (t.upper === 'CASE') cases++;
    else if (t.upper === 'END') cases--;
    else if (t.upper === 'BETWEEN') between = true;
    else if (t.upper === 'AND') between = false;
  }
  if (cases > 0) return 'CASE without END';
  if (between) return 'BETWEEN expects: x BETWEEN low AND high';
  return null;
}

function firstClauseColumn(tokens: Token[]): number {
  const t = tokens.find((x) => x.kind === 'ident' && CLAUSE_KEYWORDS.has(x.upper));
  return t ? t.start + 1 : 1;
}

/** Turns a PEG SyntaxError into a short message; the raw "Expected ... but found" list is never shown. */
function translateParserError(
  e: unknown,
  text: string,
  tokens: Token[],
  toUser: (o: number) => number,
): ExpressionError {
  const loc = (e as { location?: { start?: { offset?: number } } })?.location?.start?.offset;
  // Without a location (a semantic error of the grammar) the end of the text is the best guess.
  const offset = typeof loc === 'number' ? toUser(loc) : text.length;
  const at = tokens.findIndex((t) => t.end > offset);
  const last = tokens[tokens.length - 1];
  if (at < 0 || offset >= text.length) {
    // The parser ran into the wrapper: the user's text ended too early.
    if (EXPECTS_OPERAND.has(last.upper) && last.kind !== 'string') {
      return new ExpressionError(`expected an expression after '${last.text}'`, last.end);
    }
    if (last.upper === 'AS') return new ExpressionError("expected a name or type after 'AS'", last.end);
    const open = unclosedKeyword(tokens);
    if (open) return new ExpressionError(open, last.end);
    return new ExpressionError('unexpected end of expression', last.end);
  }
  const tok = tokens[at];
  const prev = at > 0 ? tokens[at - 1] : null;
  if (prev?.upper === 'AS' && tok.kind === 'ident') {
    return new ExpressionError(`unknown type ${tok.text}`, tok.start + 1);
  }
  if (prev && EXPECTS_OPERAND.has(prev.upper) && prev.kind !== 'string' && prev.kind !== 'quoted') {
    return new ExpressionError(`expected an expression after '${prev.text}'`, tok.start + 1);
  }
  if (!prev && tok.kind === 'op' && tok.text !== '(' && tok.text !== '-' && tok.text !== '*') {
    return new ExpressionError(`expected an expression before '${tok.text}'`, tok.start + 1);
  }
  return new ExpressionError(`unexpected '${tok.text}'`, tok.start + 1);
}
