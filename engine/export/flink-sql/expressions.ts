import { splitTopLevel, tokenize, type Token } from '../../sql/lexer.ts';
import { quoteIdent, sqlString, unquoteIdent } from './identifiers.ts';
import { FLINK_KEYWORDS } from './reserved-words.ts';
import type { Col } from './context.ts';
import { arithmeticType, avgType, literalType, roundType, sumType } from './numeric-types.ts';
import {
  BIGINT_FUNCS,
  BOOLEAN_FUNCS,
  DOUBLE_FUNCS,
  INT_FUNCS,
  SAME_AS_ARG,
  STRING_FUNCS,
  TIMESTAMP_FUNCS,
} from './function-types.ts';

/**
 * Weir's expressions are Flink SQL already; they are passed through token by token, keeping the
 * user's spelling and spacing, with three repairs: column names that Flink would read as keywords
 * (`value`, `user`, ...) get backticks, double-quoted strings become single-quoted literals (Flink
 * has no double-quoted strings), and `SUBSTRING(s FROM a FOR b)` is written `SUBSTRING(s, a, b)`.
 * (`AVG` passes through: Weir's AVG of integers truncates as Flink's does.)
 */
export interface RewriteOptions {
  /** Column references to spell under another name (a window's input with renamed columns). */
  rename?: ReadonlyMap<string, string>;
}

export function rewriteExpr(text: string, cols: readonly Col[], opts: RewriteOptions = {}): string {
  const toks = tokenize(text);
  const names = new Set(cols.map((c) => c.name));
  const before = new Map<number, string>();
  const after = new Map<number, string>();
  const owners: string[] = []; // what opened each enclosing '(' (for CAST ... AS <type>)
  let out = '';
  let pos = 0;
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k];
    const prev = toks[k - 1];
    const next = toks[k + 1];
    let spelled = t.text;
    if (t.kind === 'op' && t.text === '(') owners.push(prev && prev.kind === 'ident' ? prev.upper : '');
    if (t.kind === 'op' && t.text === ')') owners.pop();
    const afterAs = prev !== undefined && prev.kind === 'ident' && prev.upper === 'AS';
    const inCast =
      owners.length > 0 && (owners[owners.length - 1] === 'CAST' || owners[owners.length - 1] === 'TRY_CAST');
    if (t.kind === 'ident') {
      const isCall = next !== undefined && next.text === '(';
      const qualified = prev !== undefined && prev.text === '.';
      if (afterAs && !inCast)
        spelled = quoteIdent(t.text); // an alias
      else if (!isCall && !qualified && !afterAs && names.has(t.text))
        spelled = quoteIdent(opts.rename?.get(t.text) ?? t.text);
      if (t.upper === 'DATE_FORMAT' && isCall) epochMillisAsTimestamp(toks, k + 1, cols, opts, before, after);
      if (t.upper === 'SQRT' && isCall) {
        // SQRT(x) is POWER(x, 0.5) in Flink (NaN below zero alike); SQL tooling's Flink grammar
        // (dt-sql-parser, which checks this export) does not know SQRT.
        spelled = 'POWER';
        const close = matchingParen(toks, k + 1);
        if (close > 0) before.set(close, ', 0.5' + (before.get(close) ?? ''));
      }
    } else if (t.kind === 'quoted' && !afterAs && opts.rename?.has(unquoteIdent(t.text))) {
      spelled = quoteIdent(opts.rename.get(unquoteIdent(t.text))!);
    } else if (t.kind === 'dstring') {
      const inner = t.text.slice(1, -1).replace(/""/g, '"');
      spelled = names.has(inner) ? quoteIdent(inner) : sqlString(inner);
    }
    // SUBSTRING(s FROM a FOR b) is SUBSTRING(s, a, b) in Flink too; the comma form is the one
    // every Flink SQL tool parses.
    const owner = owners[owners.length - 1];
    if (
      t.kind === 'ident' &&
      (t.upper === 'FROM' || t.upper === 'FOR') &&
      (owner === 'SUBSTRING' || owner === 'SUBSTR')
    ) {
      out += ',';
      pos = t.end;
      continue;
    }
    out += text.slice(pos, t.start) + (before.get(k) ?? '') + spelled + (after.get(k) ?? '');
    pos = t.end;
  }
  return out + text.slice(pos);
}

/** Integer types: a Weir time column of epoch milliseconds (source.nexmark's `dateTime`). */
const EPOCH_MILLIS_TYPES = new Set(['BIGINT', 'INT', 'INTEGER', 'SMALLINT', 'TINYINT']);

/**
 * Flink's DATE_FORMAT takes a TIMESTAMP or a string, not a number: Weir's DATE_FORMAT of epoch
 * milliseconds is written DATE_FORMAT(TO_TIMESTAMP_LTZ(x, 3), ...), which formats in the session
 * time zone, UTC in every exported script (settings.ts), as Weir does.
 */
function epochMillisAsTimestamp(
  toks: Token[],
  open: number,
  cols: readonly Col[],
  opts: RewriteOptions,
  before: Map<number, string>,
  after: Map<number, string>,
): void {
  const close = matchingParen(toks, open);
  if (close < 0) return;
  const [first] = splitTopLevel(toks.slice(open + 1, close));
  if (!first || first[1] <= first[0]) return;
  const [a, b] = [open + 1 + first[0], open + first[1]];
  const type = inferType(toks.slice(a, b + 1), cols, opts);
  if (!type || !EPOCH_MILLIS_TYPES.has(type.type)) return;
  before.set(a, 'TO_TIMESTAMP_LTZ(' + (before.get(a) ?? ''));
  after.set(b, (after.get(b) ?? '') + ', 3)');
}

function matchingParen(toks: Token[], open: number): number {
  let depth = 0;
  for (let k = open; k < toks.length; k++) {
    if (toks[k].text === '(') depth++;
    else if (toks[k].text === ')' && --depth === 0) return k;
  }
  return -1;
}

/** One item of a select or aggregate list. */
export interface SelectItem {
  /** `*`: every input column. */
  star: boolean;
  /** Expression text rewritten for Flink, without its alias. */
  expr: string;
  /** Output column name (the alias, the column itself, or Flink's `EXPR$n`). */
  name: string;
  /** True when the item names no output column of its own and Flink would invent `EXPR$n`. */
  generatedName: boolean;
  type: string;
  certain: boolean;
}

const EXPRESSION_END = new Set<string>(['ident', 'quoted', 'number', 'string', 'dstring']);

export function splitSelectList(text: string, cols: readonly Col[], opts: RewriteOptions = {}): SelectItem[] {
  const toks = tokenize(text);
  const items: SelectItem[] = [];
  splitTopLevel(toks).forEach(([from, to], i) => {
    const part = toks.slice(from, to);
    if (part.length === 0) return;
    if (part.length === 1 && part[0].text === '*') {
      items.push({ star: true, expr: '*', name: '*', generatedName: false, type: '', certain: true });
      return;
    }
    let exprEnd = part.length;
    let alias: string | null = null;
    const last = part[part.length - 1];
    const isName = last.kind === 'quoted' || (last.kind === 'ident' && !FLINK_KEYWORDS.has(last.upper));
    if (
      part.length >= 3 &&
      part[part.length - 2].upper === 'AS' &&
      (isName || last.kind === 'ident' || last.kind === 'dstring')
    ) {
      alias = last.kind === 'dstring' ? last.text.slice(1, -1) : unquoteIdent(last.text);
      exprEnd = part.length - 2;
    } else if (part.length >= 2 && isName) {
      const p = part[part.length - 2];
      if (EXPRESSION_END.has(p.kind) ? !(p.kind === 'ident' && FLINK_KEYWORDS.has(p.upper)) : p.text === ')') {
        alias = unquoteIdent(last.text);
        exprEnd = part.length - 1;
      }
    }
    const exprToks = part.slice(0, exprEnd);
    const source = text.slice(exprToks[0].start, exprToks[exprToks.length - 1].end);
    const single =
      exprToks.length === 1 && (exprToks[0].kind === 'ident' || exprToks[0].kind === 'quoted')
        ? unquoteIdent(exprToks[0].text)
        : null;
    const inferred = inferType(exprToks, cols, opts) ?? { type: 'STRING', certain: false };
    items.push({
      star: false,
      expr: rewriteExpr(source, cols, opts),
      name: alias ?? single ?? `EXPR$${i}`,
      generatedName: alias === null && single === null,
      type: inferred.type,
      certain: inferred.certain,
    });
  });
  return items;
}

export interface Typed {
  type: string;
  certain: boolean;
}

const BOOLEAN_OPS = new Set([
  'AND',
  'OR',
  'NOT',
  '=',
  '<>',
  '!=',
  '<',
  '>',
  '<=',
  '>=',
  'LIKE',
  'IN',
  'BETWEEN',
  'IS',
  'EXISTS',
  'SIMILAR',
]);
const ARITHMETIC = new Set(['+', '-', '*', '/', '%']);
/** Flink's result type of an expression where it can be told from the tokens alone; null otherwise. */
export function inferType(toks: Token[], cols: readonly Col[], opts: RewriteOptions = {}): Typed | null {
  if (toks.length === 0) return null;
  if (toks.length === 1) return atomType(toks[0], cols);
  const first = toks[0];
  if (first.text === '(' && matchingParen(toks, 0) === toks.length - 1) return inferType(toks.slice(1, -1), cols, opts);
  let depth = 0;
  let sawConcat = false;
  const operands: Token[][] = [[]];
  const ops: string[] = [];
  for (const t of toks) {
    if (t.text === '(') depth++;
    if (t.text === ')') depth--;
    if (depth === 0 && t.kind !== 'string' && t.kind !== 'quoted' && BOOLEAN_OPS.has(t.upper)) {
      if (first.upper !== 'CASE') return { type: 'BOOLEAN', certain: true };
    }
    if (depth === 0 && t.kind === 'op' && t.text === '||') sawConcat = true;
    if (depth === 0 && t.kind === 'op' && ARITHMETIC.has(t.text) && operands[operands.length - 1].length > 0) {
      operands.push([]);
      ops.push(t.text);
    } else operands[operands.length - 1].push(t);
  }
  if (first.upper === 'CASE') {
    // Flink types a CASE by all its branches; the first one is a guess, so the sink casts to it.
    const t = caseType(toks, cols, opts);
    return t && { type: t.type, certain: t.certain && (t.type === 'STRING' || t.type === 'BOOLEAN') };
  }
  if (sawConcat) return { type: 'STRING', certain: true };
  // A sign before one operand (`-1.5`, `-amount`) keeps its type.
  if (operands.length === 1 && (first.text === '-' || first.text === '+')) return inferType(toks.slice(1), cols, opts);
  if (operands.length > 1)
    return numericType(
      ops,
      operands.map((o) => inferType(stripSign(o), cols, opts)),
    );
  if (first.kind === 'ident' && toks[1].text === '(' && matchingParen(toks, 1) === toks.length - 1) {
    const fn = first.upper;
    const args = splitTopLevel(toks.slice(2, -1)).map(([a, b]) => toks.slice(2 + a, 2 + b));
    if (fn === 'CAST' || fn === 'TRY_CAST') {
      const as = toks.findIndex((t, k) => k > 1 && t.upper === 'AS');
      if (as < 0) return null;
      const type = toks
        .slice(as + 1, -1)
        .map((t) => t.text)
        .join(' ')
        .toUpperCase()
        .replace(/\s*\(\s*/g, '(')
        .replace(/\s*\)/g, ')')
        .replace(/\s*,\s*/g, ', ');
      return { type, certain: true };
    }
    if (fn === 'COUNT') return { type: 'BIGINT', certain: true };
    if (fn === 'AVG' || fn === 'SUM') {
      const t = inferType(args[0] ?? [], cols, opts);
      return t && { type: fn === 'AVG' ? avgType(t.type) : sumType(t.type), certain: t.certain };
    }
    if (fn === 'ROUND' || fn === 'TRUNCATE') {
      const t = inferType(args[0] ?? [], cols, opts);
      const r = args.length > 1 && args[1].length === 1 && /^\d+$/.test(args[1][0].text) ? Number(args[1][0].text) : 0;
      return t && { type: roundType(t.type, r), certain: t.certain };
    }
    if (STRING_FUNCS.has(fn)) return { type: 'STRING', certain: true };
    if (INT_FUNCS.has(fn)) return { type: 'INT', certain: true };
    if (DOUBLE_FUNCS.has(fn)) return { type: 'DOUBLE', certain: true };
    if (BIGINT_FUNCS.has(fn)) return { type: 'BIGINT', certain: true };
    if (BOOLEAN_FUNCS.has(fn)) return { type: 'BOOLEAN', certain: true };
    if (TIMESTAMP_FUNCS.has(fn)) return { type: 'TIMESTAMP(3)', certain: true };
    if (fn === 'TIMESTAMPADD') return inferType(args[2] ?? [], cols, opts);
    if (fn === 'IF') return inferType(args[1] ?? [], cols, opts);
    if (fn === 'NULLIF') return inferType(args[0] ?? [], cols, opts);
    // MOD(a, b) is a % b in Flink (the same SqlStdOperatorTable.MOD).
    if (fn === 'MOD' && args.length === 2)
      return numericType(
        ['%'],
        args.map((a) => inferType(stripSign(a), cols, opts)),
      );
    if (SAME_AS_ARG.has(fn)) return inferType(args[0] ?? [], cols, opts);
  }
  return null;
}

function stripSign(toks: Token[]): Token[] {
  return toks.length > 1 && (toks[0].text === '-' || toks[0].text === '+') ? toks.slice(1) : toks;
}

function atomType(t: Token, cols: readonly Col[]): Typed | null {
  if (t.kind === 'ident' || t.kind === 'quoted') {
    const name = unquoteIdent(t.text);
    const col = cols.find((c) => c.name === name);
    if (col) return { type: col.type, certain: col.certain };
    if (t.upper === 'TRUE' || t.upper === 'FALSE') return { type: 'BOOLEAN', certain: true };
    return null;
  }
  if (t.kind === 'string') return { type: 'STRING', certain: true };
  if (t.kind === 'number') return { type: literalType(t.text), certain: true };
  return null;
}

/**
 * `a op b op c ...` folded left to right with Flink's rules (numeric-types.ts). Precedence of `*`
 * over `+` does not change a result type except for DECIMAL precision; the fold keeps it simple.
 */
function numericType(ops: readonly string[], types: Array<Typed | null>): Typed | null {
  if (types.some((t) => t === null)) return null;
  const ts = types as Typed[];
  const certain = ts.every((t) => t.certain);
  let type: string | null = ts[0].type;
  for (let i = 1; i < ts.length && type !== null; i++) type = arithmeticType(ops[i - 1], type, ts[i].type);
  return type === null ? null : { type, certain };
}

function caseType(toks: Token[], cols: readonly Col[], opts: RewriteOptions): Typed | null {
  let depth = 0;
  let start = -1;
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k];
    if (t.text === '(') depth++;
    if (t.text === ')') depth--;
    if (depth !== 0) continue;
    if (t.upper === 'THEN') start = k + 1;
    else if (start >= 0 && (t.upper === 'WHEN' || t.upper === 'ELSE' || t.upper === 'END')) {
      return inferType(toks.slice(start, k), cols, opts);
    }
  }
  return null;
}
