import { compileExpr } from './compile.ts';
import { contextFor } from './context.ts';
import { ExpressionError } from './errors.ts';
import { parseSelectList } from './parse.ts';
import type { ColumnType, ColumnTypes, Compiled, Row, SqlAst } from './types.ts';
import { compare, roundHalfUp, toNumber } from './values.ts';
import { exactSumAdd, exactSumMerge, exactSumValue, type ExactSum } from './exact-sum.ts';
import { Decimal, MAX_PRECISION, decimalAdd, decimalFromInteger, toJsValue } from './decimal.ts';
import { extractAggregateFilters } from './aggregate-filters.ts';
import { listaggInput, MORE_ACCUMULATORS, MORE_AGGREGATE_FNS, type MoreAggregateFn } from './more-aggregates.ts';
import { UNSUPPORTED_AGGREGATES } from './functions.ts';
import { distinctCount, distinctCountChanged, distinctCountUnknown, distinctKey } from './distinct-count.ts';

export type AggregateFn = 'COUNT' | 'SUM' | 'MIN' | 'MAX' | 'AVG' | MoreAggregateFn;
const AGGREGATE_FNS: readonly AggregateFn[] = ['COUNT', 'SUM', 'MIN', 'MAX', 'AVG', ...MORE_AGGREGATE_FNS];
const AGGREGATE_LIST =
  'COUNT, SUM, MIN, MAX, AVG, STDDEV_POP, STDDEV_SAMP, VAR_POP, VAR_SAMP, FIRST_VALUE, LAST_VALUE or LISTAGG';

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
  /** Static type of the result, as Flink types it (UNKNOWN where the argument's type is unknown). */
  resultType: ColumnType;
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
export function compileAggregates(userText: string, columnTypes?: ColumnTypes): AggregateCall[] {
  const { text, filters } = extractAggregateFilters(userText);
  const parsed = parseSelectList(text);
  const { items } = parsed;
  const calls: AggregateCall[] = [];
  const aliases = new Set<string>();
  items.forEach((item, i) => {
    const ast = item.ast;
    const col = item.start + 1;
    if (item.star) throw new ExpressionError("'*' is not an aggregate: write COUNT(*)", col);
    // The parser knows COUNT ... AVG and LISTAGG as aggregates; STDDEV_POP(x) and the others come
    // as function calls with one argument.
    const callName = ast.type === 'function' ? String(ast.name?.name?.[0]?.value ?? '').toUpperCase() : '';
    const asCall = callName !== '' && (MORE_AGGREGATE_FNS as readonly string[]).includes(callName);
    if (ast.type !== 'aggr_func' && !asCall) {
      const why = UNSUPPORTED_AGGREGATES[callName];
      throw new ExpressionError(
        why
          ? `Flink's ${callName} is not supported in Weir: ${why}`
          : callName
            ? `unknown aggregate function ${callName}: use ${AGGREGATE_LIST}`
            : `expected an aggregate function call: ${AGGREGATE_LIST}`,
        col,
      );
    }
    const fn = (asCall ? callName : String(ast.name).toUpperCase()) as AggregateFn;
    if (!AGGREGATE_FNS.includes(fn)) {
      const why = UNSUPPORTED_AGGREGATES[fn];
      throw new ExpressionError(
        why
          ? `Flink's ${fn} is not supported in Weir: ${why}`
          : `unsupported aggregate function ${fn}: use ${AGGREGATE_LIST}`,
        col,
      );
    }
    // The parser reads LISTAGG(x, 'sep') as an aggregate; with another separator, as a call.
    if (asCall && fn === 'LISTAGG') throw new ExpressionError('LISTAGG: the separator must be a string literal', col);
    if (asCall && (ast.args?.value?.length ?? 0) !== 1)
      throw new ExpressionError(`${fn} expects 1 argument, got ${ast.args?.value?.length ?? 0}`, col);
    const distinct = Boolean(ast.args?.distinct);
    if (distinct && fn !== 'COUNT')
      throw new ExpressionError(`${fn}(DISTINCT ...) is not supported: only COUNT(DISTINCT x)`, col);
    if (ast.over || ast.filter || ast.args?.orderby) throw new ExpressionError(`unsupported clause in ${fn}(...)`, col);
    const argAst = asCall ? ast.args.value[0] : ast.args?.expr;
    const separator = fn === 'LISTAGG' ? listaggSeparator(ast, col) : ',';
    const alias = item.alias ?? `EXPR$${i}`;
    if (aliases.has(alias)) throw new ExpressionError(`duplicate column name '${alias}'`, col);
    aliases.add(alias);
    const itemEnd = i + 1 < items.length ? items[i + 1].start : text.length;
    const filter = filters.find((f) => f.start >= item.start && f.start < itemEnd) ?? null;
    const test = filter?.test;
    const filtered = (input: (row: Row) => unknown): ((row: Row) => unknown) =>
      test ? (row) => (test(row) ? input(row) : null) : input;
    const extra = { distinct, filterText: filter?.where ?? null, filterColumns: filter?.columns ?? [] };
    if (!argAst || argAst.type === 'star') {
      if (fn !== 'COUNT') throw new ExpressionError(`${fn}(*) is not valid: only COUNT(*) counts rows`, col);
      if (distinct) throw new ExpressionError('COUNT(DISTINCT *) is not valid: name a column', col);
      calls.push({
        alias,
        fn,
        argText: null,
        arg: null,
        input: filtered(COUNT_STAR_INPUT),
        resultType: { type: 'BIGINT' },
        ...extra,
      });
      return;
    }
    const ctx = contextFor(text, parsed, item, 'an aggregate argument (aggregates cannot be nested)', [], columnTypes);
    const c = compileExpr(argAst, ctx);
    const open = item.text.indexOf('(');
    const argText = item.text
      .slice(open + 1, item.text.lastIndexOf(')'))
      .trim()
      .replace(/^DISTINCT\s+/i, '');
    // AVG reads the kind of each value (integer, DECIMAL, DOUBLE) for its result type; the others
    // get plain JSON values, which is what accumulators keep in state.
    const f = c.fn;
    const input =
      fn === 'LISTAGG'
        ? listaggInput(f, separator)
        : fn === 'COUNT' || fn === 'MIN' || fn === 'MAX' || fn === 'FIRST_VALUE' || fn === 'LAST_VALUE'
          ? (row: Row) => toJsValue(f(row))
          : fn === 'SUM'
            ? f
            : // statically DOUBLE (CAST(x AS DOUBLE) of 1 is the JS number 1): AVG must not truncate it
              c.type === 'DOUBLE'
              ? (row: Row) => {
                  const v = f(row);
                  return typeof v === 'number' ? new DoubleValue(v) : v;
                }
              : f;
    calls.push({
      alias,
      fn,
      argText,
      arg: f,
      input: filtered(input),
      resultType: aggregateResultType(fn, c),
      ...extra,
    });
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
 * input is 0. SUM and AVG ignore values that are not numeric. AVG's result type follows its input
 * (see `avg` below), as Flink's.
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
// SUM of DECIMALs is an exact DECIMAL, as in Flink (DECIMAL(38, s)): its accumulator is
// `{ u: unscaled digits, s: scale }`. A DOUBLE seen with it turns the sum into an exact double sum.
// `u` is a number while it is a safe integer (the common case: adding two is then one JS addition,
// where BigInt parsing and printing per row cost a third of a window job's time), digits beyond.
interface DecimalSum {
  u: string | number;
  s: number;
}
const isDecimalSum = (a: unknown): a is DecimalSum => a !== null && typeof a === 'object' && !Array.isArray(a);
const toDecimal = (a: DecimalSum): Decimal => new Decimal(BigInt(a.u), a.s, MAX_PRECISION);
function fromDecimal(d: Decimal): DecimalSum {
  const n = Number(d.unscaled);
  return { u: Number.isSafeInteger(n) ? n : d.unscaled.toString(), s: d.scale };
}

export function addToSum(acc: unknown, v: unknown): unknown {
  if (v instanceof Decimal) {
    if (acc === null) return fromDecimal(v);
    if (isDecimalSum(acc) && typeof acc.u === 'number' && acc.s === v.scale) {
      const x = Number(v.unscaled);
      const sum = acc.u + x;
      // Both exact below 2^53 and a safe sum: the exact sum (and far inside DECIMAL(38)).
      if (Number.isSafeInteger(x) && Number.isSafeInteger(sum)) return { u: sum, s: acc.s };
    }
    if (isDecimalSum(acc)) return fromDecimal(decimalAdd(toDecimal(acc), v) ?? toDecimal(acc));
    return exactSumAdd(acc as ExactSum, v.toNumber());
  }
  const n = typeof v === 'number' ? v : toNumber(v);
  if (n === null) return acc;
  if (isDecimalSum(acc)) {
    // A whole number joins a DECIMAL sum exactly; a fraction makes it a DOUBLE sum.
    if (Number.isSafeInteger(n))
      return fromDecimal(decimalAdd(toDecimal(acc), decimalFromInteger(n)) ?? toDecimal(acc));
    return exactSumAdd(toDecimal(acc).toNumber(), n);
  }
  return exactSumAdd(acc === null ? 0 : (acc as ExactSum), n);
}

const sum: Accumulator = {
  create: () => null,
  add: addToSum,
  merge: (a, b) => {
    if (b === null) return a;
    if (isDecimalSum(b)) return addToSum(a, toDecimal(b));
    if (a === null) return copySum(b as ExactSum);
    if (isDecimalSum(a)) return exactSumMerge(toDecimal(a).toNumber(), b as ExactSum);
    return exactSumMerge(a as ExactSum, b as ExactSum);
  },
  result: (acc) =>
    acc === null ? null : isDecimalSum(acc) ? toDecimal(acc).toNumber() : exactSumValue(acc as ExactSum),
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

/**
 * AVG's result type is its argument's (Flink's LogicalTypeMerging.findAvgAggType): over integers a
 * BIGINT, sum / count truncated toward zero (Flink's AvgAggFunction divides BIGINTs); over DECIMAL(p, s)
 * a DECIMAL(38, max(6, s)), rounded HALF_UP; over DOUBLE a DOUBLE. Rows carry no column types, so the
 * accumulator records the kind of the values it saw: [exact sum, count, kind] with kind 0 = only
 * integers, -1 = a DOUBLE was seen, s + 1 = DECIMALs of scale up to s (and no DOUBLE).
 */
const avg: Accumulator = {
  create: () => [0, 0, 0],
  add: (acc, v) => {
    const n = v instanceof Decimal || v instanceof DoubleValue ? v.toNumber() : typeof v === 'number' ? v : toNumber(v);
    if (n === null) return acc;
    const a = acc as [ExactSum, number, number?];
    a[0] = exactSumAdd(a[0], n);
    a[1] += 1;
    a[2] = mergeKind(
      a[2] ?? 0,
      v instanceof Decimal ? v.scale + 1 : v instanceof DoubleValue || !Number.isInteger(n) ? -1 : 0,
    );
    return a;
  },
  merge: (a, b) => {
    const x = a as [ExactSum, number, number?],
      y = b as [ExactSum, number, number?];
    x[0] = exactSumMerge(x[0], y[0]);
    x[1] += y[1];
    x[2] = mergeKind(x[2] ?? 0, y[2] ?? 0);
    return x;
  },
  result: (acc) => {
    const a = acc as [ExactSum, number, number?];
    if (a[1] === 0) return null;
    const kind = a[2] ?? 0;
    const mean = exactSumValue(a[0]) / a[1];
    if (kind === 0) return Math.trunc(mean) || 0;
    return kind > 0 ? roundHalfUp(mean, Math.max(6, kind - 1)) : mean;
  },
};

/** A number of a statically DOUBLE argument, whatever its value: AVG's result is then a DOUBLE. */
class DoubleValue {
  constructor(readonly value: number) {}
  toNumber(): number {
    return this.value;
  }
}

function mergeKind(a: number, b: number): number {
  if (a === -1 || b === -1) return -1;
  return Math.max(a, b);
}

const ACCUMULATORS: Record<AggregateFn, Accumulator> = {
  COUNT: count,
  SUM: sum,
  MIN: extreme(-1),
  MAX: extreme(1),
  AVG: avg,
  ...MORE_ACCUMULATORS,
};

/** LISTAGG's separator: a string literal (',' when absent), as Flink requires. */
function listaggSeparator(ast: SqlAst, col: number): string {
  const sep: unknown = ast.args?.separator;
  if (sep === null || sep === undefined) return ',';
  const lit = Array.isArray(sep) ? (sep[sep.length - 1] as SqlAst | undefined) : undefined;
  if (lit && (lit.type === 'single_quote_string' || lit.type === 'string'))
    return String(lit.value).replace(/''/g, "'");
  throw new ExpressionError('LISTAGG: the separator must be a string literal', col);
}

/**
 * COUNT(DISTINCT x): the accumulator is an object whose keys are the distinct values (as JSON
 * text, so 1 and '1' stay apart); merging unions the keys. Plain JSON, as keyed state needs.
 */
const countDistinct: Accumulator = {
  create: () => ({}),
  add: (acc, v) => {
    if (v === null || v === undefined) return acc;
    const m = acc as Record<string, 1>;
    const k = distinctKey(v);
    if (!Object.hasOwn(m, k)) {
      m[k] = 1;
      distinctCountChanged(m, 1);
    }
    return m;
  },
  merge: (a, b) => {
    distinctCountUnknown(a as object);
    return Object.assign(a as object, b as object);
  },
  result: (acc) => distinctCount(acc as object),
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

/** Flink's result type of an aggregate (LogicalTypeMerging.findSumAggType / findAvgAggType). */
function aggregateResultType(fn: AggregateFn, arg: Compiled): ColumnType {
  if (fn === 'COUNT') return { type: 'BIGINT' };
  if (fn === 'LISTAGG') return { type: 'STRING' };
  // SUM, AVG, MIN, MAX... of an INT are INTs (FlinkTypeSystem.deriveSumType / deriveAvgAggType keep
  // every non-DECIMAL argument type).
  if (arg.type === 'BIGINT' && arg.precision !== undefined) return { type: 'BIGINT', precision: arg.precision };
  if (arg.type !== 'DECIMAL' || arg.scale === undefined) return { type: arg.type };
  if (fn === 'SUM') return { type: 'DECIMAL', precision: 38, scale: arg.scale };
  // VAR_*/STDDEV_* are AVGs of squares in Flink's planner (AggregateReduceFunctionsRule): the same type.
  if (fn === 'AVG' || fn.startsWith('VAR') || fn.startsWith('STDDEV'))
    return { type: 'DECIMAL', precision: 38, scale: Math.max(6, arg.scale) };
  return { type: 'DECIMAL', precision: arg.precision, scale: arg.scale };
}
