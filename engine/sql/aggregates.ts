import { compileExpr } from './compile.ts';
import { contextFor } from './context.ts';
import { ExpressionError } from './errors.ts';
import { parseSelectList } from './parse.ts';
import type { Row } from './types.ts';
import { compare, toNumber } from './values.ts';
import { exactSumAdd, exactSumMerge, exactSumValue, type ExactSum } from './exact-sum.ts';
import { extractAggregateFilters } from './aggregate-filters.ts';

export type AggregateFn = 'COUNT' | 'SUM' | 'MIN' | 'MAX' | 'AVG';
const AGGREGATE_FNS: readonly AggregateFn[] = ['COUNT', 'SUM', 'MIN', 'MAX', 'AVG'];

export interface AggregateCall {
  /** Output column: the alias, or Flink's default `EXPR$i` (i = position in the aggregates list). */
  alias: string;
  fn: AggregateFn;
  /** Source text of the argument, null for COUNT(*). */
  argText: string | null;
  /** The compiled argument, null for COUNT(*). */
  arg: ((row: Row) => unknown) | null;
  /**
   * The value to feed the accumulator for a row: arg(row), or 1 for COUNT(*); NULL (ignored by
   * every accumulator) when the row fails the call's FILTER.
   */
  input: (row: Row) => unknown;
  /** COUNT(DISTINCT x): counts distinct non-NULL values (accumulatorFor(fn, true)). */
  distinct: boolean;
  /** `FILTER (WHERE ...)` condition text, null when absent. */
  filterText: string | null;
  /** Columns read by the FILTER condition. */
  filterColumns: string[];
}

const COUNT_STAR_INPUT = (): unknown => 1;

/**
 * Compiles a `window.aggregates` list such as `COUNT(*) AS n, SUM(amount) AS total`, also
 * `COUNT(DISTINCT x)` and `SUM(x) FILTER (WHERE y > 0)`.
 */
export function compileAggregates(userText: string): AggregateCall[] {
  const { text, filters } = extractAggregateFilters(userText);
  const parsed = parseSelectList(text);
  const { items, tokens } = parsed;
  const calls: AggregateCall[] = [];
  const aliases = new Set<string>();
  items.forEach((item, i) => {
    const ast = item.ast;
    const col = item.start + 1;
    if (item.star) throw new ExpressionError("'*' is not an aggregate: write COUNT(*)", col);
    if (ast.type !== 'aggr_func') {
      const name = ast.type === 'function' ? String(ast.name?.name?.[0]?.value ?? '').toUpperCase() : '';
      throw new ExpressionError(name
        ? `unknown aggregate function ${name}: use COUNT, SUM, MIN, MAX or AVG`
        : 'expected an aggregate function call: COUNT, SUM, MIN, MAX or AVG', col);
    }
    const fn = String(ast.name).toUpperCase() as AggregateFn;
    if (!AGGREGATE_FNS.includes(fn)) throw new ExpressionError(`unsupported aggregate function ${fn}: use COUNT, SUM, MIN, MAX or AVG`, col);
    const distinct = Boolean(ast.args?.distinct);
    if (distinct && fn !== 'COUNT') throw new ExpressionError(`${fn}(DISTINCT ...) is not supported: only COUNT(DISTINCT x)`, col);
    if (ast.over || ast.filter || ast.args?.orderby) throw new ExpressionError(`unsupported clause in ${fn}(...)`, col);
    const argAst = ast.args?.expr;
    const alias = item.alias ?? `EXPR$${i}`;
    if (aliases.has(alias)) throw new ExpressionError(`duplicate column name '${alias}'`, col);
    aliases.add(alias);
    const itemEnd = i + 1 < items.length ? items[i + 1].start : text.length;
    const filter = filters.find((f) => f.start >= item.start && f.start < itemEnd) ?? null;
    const test = filter?.test;
    const filtered = (input: (row: Row) => unknown): ((row: Row) => unknown) =>
      (test ? (row) => (test(row) ? input(row) : null) : input);
    const extra = { distinct, filterText: filter?.where ?? null, filterColumns: filter?.columns ?? [] };
    if (!argAst || (argAst.type === 'star')) {
      if (fn !== 'COUNT') throw new ExpressionError(`${fn}(*) is not valid: only COUNT(*) counts rows`, col);
      if (distinct) throw new ExpressionError('COUNT(DISTINCT *) is not valid: name a column', col);
      calls.push({ alias, fn, argText: null, arg: null, input: filtered(COUNT_STAR_INPUT), ...extra });
      return;
    }
    const ctx = contextFor(text, parsed, item, 'an aggregate argument (aggregates cannot be nested)', []);
    const c = compileExpr(argAst, ctx);
    const open = item.text.indexOf('(');
    const argText = item.text.slice(open + 1, item.text.lastIndexOf(')')).trim().replace(/^DISTINCT\s+/i, '');
    calls.push({ alias, fn, argText, arg: c.fn, input: filtered(c.fn), ...extra });
  });
  if (filters.some((f) => !calls.some((c) => c.filterText === f.where))) {
    throw new ExpressionError('FILTER must follow an aggregate call', filters[0].start + 1);
  }
  return calls;
}

/**
 * Incremental accumulator of one aggregate function. Accumulators are plain JSON values (they are
 * kept in keyed state, checkpointed, and merged when session windows merge):
 * COUNT -> number, SUM -> exact sum (number | number[]) or null, MIN/MAX -> value or null,
 * AVG -> [exact sum, count].
 * `add` and `merge` may update their first argument in place and return it: callers must keep the
 * returned value and drop the old reference; `merge` leaves its second argument unchanged.
 * SQL rules: NULL inputs are ignored; SUM/MIN/MAX/AVG of no (non-NULL) input are NULL; COUNT of no
 * input is 0. SUM and AVG ignore values that are not numeric. AVG is a double (Flink's AVG of an
 * INT column truncates to INT: export casts the argument to DOUBLE to keep the result identical).
 */
export interface Accumulator {
  create(): unknown;
  add(acc: unknown, value: unknown): unknown;
  merge(a: unknown, b: unknown): unknown;
  result(acc: unknown): unknown;
}

const count: Accumulator = {
  create: () => 0,
  add: (acc, v) => (v === null || v === undefined ? acc : (acc as number) + 1),
  merge: (a, b) => (a as number) + (b as number),
  result: (acc) => acc,
};

// SUM and AVG add exactly (engine/sql/exact-sum.ts): the result does not depend on the order in
// which parallel channels or a replay after recovery deliver the values.
const sum: Accumulator = {
  create: () => null,
  add: (acc, v) => {
    const n = typeof v === 'number' ? v : toNumber(v);
    if (n === null) return acc;
    return exactSumAdd(acc === null ? 0 : (acc as ExactSum), n);
  },
  merge: (a, b) => (a === null ? copySum(b as ExactSum | null) : b === null ? a : exactSumMerge(a as ExactSum, b as ExactSum)),
  result: (acc) => (acc === null ? null : exactSumValue(acc as ExactSum)),
};

/** `merge` may not alias its second argument, which may still be live elsewhere. */
function copySum(s: ExactSum | null): ExactSum | null {
  return Array.isArray(s) ? s.slice() : s;
}

function extreme(sign: 1 | -1): Accumulator {
  const better = (a: unknown, b: unknown): unknown => {
    if (b === null || b === undefined) return a;
    if (a === null) return b;
    const c = compare(b, a);
    return c !== null && c * sign > 0 ? b : a;
  };
  return { create: () => null, add: better, merge: better, result: (acc) => acc };
}

const avg: Accumulator = {
  create: () => [0, 0],
  add: (acc, v) => {
    const n = typeof v === 'number' ? v : toNumber(v);
    if (n === null) return acc;
    const a = acc as [ExactSum, number];
    a[0] = exactSumAdd(a[0], n);
    a[1] += 1;
    return a;
  },
  merge: (a, b) => {
    const x = a as [ExactSum, number], y = b as [ExactSum, number];
    x[0] = exactSumMerge(x[0], y[0]);
    x[1] += y[1];
    return x;
  },
  result: (acc) => {
    const a = acc as [ExactSum, number];
    return a[1] === 0 ? null : exactSumValue(a[0]) / a[1];
  },
};

const ACCUMULATORS: Record<AggregateFn, Accumulator> = {
  COUNT: count, SUM: sum, MIN: extreme(-1), MAX: extreme(1), AVG: avg,
};

/**
 * COUNT(DISTINCT x): the accumulator is an object whose keys are the distinct values (as JSON
 * text, so 1 and '1' stay apart); merging unions the keys. Plain JSON, as keyed state needs.
 */
const countDistinct: Accumulator = {
  create: () => ({}),
  add: (acc, v) => {
    if (v === null || v === undefined) return acc;
    (acc as Record<string, 1>)[JSON.stringify(v)] = 1;
    return acc;
  },
  merge: (a, b) => Object.assign(a as object, b as object),
  result: (acc) => Object.keys(acc as object).length,
};

export function accumulatorFor(fn: AggregateFn, distinct = false): Accumulator {
  if (distinct) {
    if (fn !== 'COUNT') throw new Error(`no DISTINCT accumulator for ${fn}`);
    return countDistinct;
  }
  const acc = ACCUMULATORS[fn];
  if (!acc) throw new Error(`no accumulator for ${String(fn)}`);
  return acc;
}
