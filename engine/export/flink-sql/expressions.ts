import { splitTopLevel, tokenize, type Token } from '../../sql/lexer.ts';
import { compileProjectionDetailed, flinkTypeName } from '../../sql/index.ts';
import { columnTypeOfFlinkType } from '../../graph/column-types.ts';
import { quoteIdent, sqlString, unquoteIdent } from './identifiers.ts';
import { FLINK_KEYWORDS } from './reserved-words.ts';
import type { Col } from './context.ts';

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
      if (t.upper === 'DATE_FORMAT' && isCall) epochMillisAsTimestamp(text, toks, k + 1, cols, before, after);
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
  source: string,
  toks: Token[],
  open: number,
  cols: readonly Col[],
  before: Map<number, string>,
  after: Map<number, string>,
): void {
  const close = matchingParen(toks, open);
  if (close < 0) return;
  const [first] = splitTopLevel(toks.slice(open + 1, close));
  if (!first || first[1] <= first[0]) return;
  const [a, b] = [open + 1 + first[0], open + first[1]];
  const type = plannerType(source.slice(toks[a].start, toks[b].end), cols);
  if (!type || !EPOCH_MILLIS_TYPES.has(type)) return;
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
}

const EXPRESSION_END = new Set<string>(['ident', 'quoted', 'number', 'string', 'dstring']);

export function splitSelectList(text: string, cols: readonly Col[], opts: RewriteOptions = {}): SelectItem[] {
  const toks = tokenize(text);
  const items: SelectItem[] = [];
  splitTopLevel(toks).forEach(([from, to], i) => {
    const part = toks.slice(from, to);
    if (part.length === 0) return;
    if (part.length === 1 && part[0].text === '*') {
      items.push({ star: true, expr: '*', name: '*', generatedName: false });
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
    items.push({
      star: false,
      expr: rewriteExpr(source, cols, opts),
      name: alias ?? single ?? `EXPR$${i}`,
      generatedName: alias === null && single === null,
    });
  });
  return items;
}

/**
 * The planner's type of an expression over `cols` (engine/sql's checker, as everywhere else), as
 * Flink names it; null when it cannot be told (an untyped column, an expression that does not compile).
 */
function plannerType(expr: string, cols: readonly Col[]): string | null {
  try {
    const types = new Map(cols.filter((c) => c.certain).map((c) => [c.name, columnTypeOfFlinkType(c.type)]));
    const col = compileProjectionDetailed(`${expr} AS x`, types).columns?.[0];
    return col?.type && col.type !== 'UNKNOWN' ? flinkTypeName({ ...col, type: col.type }) : null;
  } catch {
    return null;
  }
}
