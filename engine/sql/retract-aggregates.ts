/**
 * Accumulators with retraction, for aggregates over a changelog (Flink's `retract` of
 * AggregateFunction): `-U`/`-D` rows take their value back out. Only operators whose input is a
 * changelog use these; append-only jobs keep the plain accumulators of aggregates.ts and their
 * state format.
 *
 * State layouts (plain JSON, as keyed state needs):
 * - COUNT: a number (retract subtracts 1 for a non-NULL value).
 * - SUM: [sum as in aggregates.ts, count of non-NULL values]; NULL once the count is back to 0
 *   (Flink's SumWithRetractAggFunction). DECIMAL sums stay exact DECIMALs, float sums exact
 *   (exact-sum.ts): adding then retracting a value leaves the sum exactly as it was.
 * - AVG: aggregates.ts's [exact sum, count, kind]; retract subtracts from sum and count. The kind
 *   (result type) only widens, as types do.
 * - MIN/MAX: [value, count] pairs sorted by value (Flink's MaxWithRetractAggFunction keeps a
 *   value -> count map): retracting the current extreme falls back to the next one.
 * - COUNT(DISTINCT x): { value as JSON: count }; a value stops counting at count 0.
 * A retraction of a value the accumulator never saw (its insert was dropped as late, or expired)
 * is ignored by MIN/MAX and COUNT(DISTINCT); COUNT/SUM/AVG subtract it anyway, as Flink does,
 * and the operators use a hidden row count to tell when a group or window is empty.
 */
import { accumulatorFor, addToSum, type Accumulator, type AggregateFn } from './aggregates.ts';
import { Decimal, decimalNegate } from './decimal.ts';
import { exactSumAdd, type ExactSum } from './exact-sum.ts';
import { compare, toNumber } from './values.ts';
import { MORE_ACCUMULATORS } from './more-aggregates.ts';
import { distinctCount, distinctCountChanged, distinctCountUnknown, distinctKey } from './distinct-count.ts';

export interface RetractingAccumulator extends Accumulator {
  /** Takes one value back out of `acc` (in place when it can); returns the accumulator. */
  retract(acc: unknown, value: unknown): unknown;
}

const isNull = (v: unknown): boolean => v === null || v === undefined;

/** A number out of an AVG/SUM input: Decimal, AVG's DoubleValue wrapper, number or numeric text. */
function numeric(v: unknown): number | null {
  if (v !== null && typeof v === 'object' && 'toNumber' in v) return (v as { toNumber(): number }).toNumber();
  return typeof v === 'number' ? v : toNumber(v);
}

const count: RetractingAccumulator = {
  ...accumulatorFor('COUNT'),
  retract: (acc, v) => (isNull(v) ? acc : (acc as number) - 1),
};

type SumAcc = [unknown, number];
const plainSum = accumulatorFor('SUM');
const sum: RetractingAccumulator = {
  create: () => [null, 0],
  add: (acc, v) => {
    const a = acc as SumAcc;
    if (isNull(v) || numeric(v) === null) return a;
    a[0] = plainSum.add(a[0], v);
    a[1] += 1;
    return a;
  },
  retract: (acc, v) => {
    const a = acc as SumAcc;
    if (isNull(v)) return a;
    const neg = v instanceof Decimal ? decimalNegate(v) : numeric(v);
    if (neg === null) return a;
    a[0] = addToSum(a[0], typeof neg === 'number' ? -neg : neg);
    a[1] -= 1;
    return a;
  },
  merge: (x, y) => {
    const a = x as SumAcc,
      b = y as SumAcc;
    a[0] = plainSum.merge(a[0], b[0]);
    a[1] += b[1];
    return a;
  },
  result: (acc) => {
    const a = acc as SumAcc;
    return a[1] === 0 ? null : plainSum.result(a[0]);
  },
};

type AvgAcc = [ExactSum, number, number?];
const avg: RetractingAccumulator = {
  ...accumulatorFor('AVG'),
  retract: (acc, v) => {
    const a = acc as AvgAcc;
    const n = numeric(v);
    if (n === null) return a;
    a[0] = exactSumAdd(a[0], -n);
    a[1] -= 1;
    return a;
  },
};

type Pairs = Array<[unknown, number]>;

/** Total order for the pairs: SQL comparison, then JSON text for values it cannot compare. */
function order(a: unknown, b: unknown): number {
  const c = compare(a, b);
  if (c !== null && c !== 0) return c;
  if (c === 0 && typeof a === typeof b) return 0;
  const x = JSON.stringify(a),
    y = JSON.stringify(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Index of `v` in sorted `pairs`, or -(insertion point) - 1. */
function search(pairs: Pairs, v: unknown): number {
  let lo = 0,
    hi = pairs.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const c = order(pairs[mid][0], v);
    if (c === 0) return mid;
    if (c < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return -lo - 1;
}

function addPair(pairs: Pairs, v: unknown, n: number): void {
  const i = search(pairs, v);
  if (i >= 0) pairs[i][1] += n;
  else pairs.splice(-i - 1, 0, [v, n]);
}

function extremeWithRetract(max: boolean): RetractingAccumulator {
  return {
    create: () => [],
    add: (acc, v) => {
      if (!isNull(v)) addPair(acc as Pairs, v, 1);
      return acc;
    },
    retract: (acc, v) => {
      const pairs = acc as Pairs;
      const i = isNull(v) ? -1 : search(pairs, v);
      if (i >= 0 && --pairs[i][1] <= 0) pairs.splice(i, 1);
      return pairs;
    },
    merge: (acc, from) => {
      for (const [v, n] of from as Pairs) addPair(acc as Pairs, v, n);
      return acc;
    },
    result: (acc) => {
      const pairs = acc as Pairs;
      if (pairs.length === 0) return null;
      return pairs[max ? pairs.length - 1 : 0][0];
    },
  };
}

const countDistinct: RetractingAccumulator = {
  create: () => ({}),
  add: (acc, v) => {
    if (isNull(v)) return acc;
    const m = acc as Record<string, number>;
    const k = distinctKey(v);
    const n = m[k];
    if (n === undefined) distinctCountChanged(m, 1);
    m[k] = (n ?? 0) + 1;
    return m;
  },
  retract: (acc, v) => {
    if (isNull(v)) return acc;
    const m = acc as Record<string, number>;
    const k = distinctKey(v);
    if (m[k] !== undefined && --m[k] <= 0) {
      delete m[k];
      distinctCountChanged(m, -1);
    }
    return m;
  },
  merge: (acc, from) => {
    const m = acc as Record<string, number>;
    distinctCountUnknown(m);
    for (const [k, n] of Object.entries(from as Record<string, number>)) m[k] = (m[k] ?? 0) + n;
    return m;
  },
  result: (acc) => distinctCount(acc as object),
};

const RETRACTING: Record<AggregateFn, RetractingAccumulator> = {
  COUNT: count,
  SUM: sum,
  MIN: extremeWithRetract(false),
  MAX: extremeWithRetract(true),
  AVG: avg,
  ...MORE_ACCUMULATORS,
};

export function retractingAccumulatorFor(fn: AggregateFn, distinct = false): RetractingAccumulator {
  if (distinct) {
    if (fn !== 'COUNT') throw new Error(`no DISTINCT accumulator for ${fn}`);
    return countDistinct;
  }
  const acc = RETRACTING[fn];
  if (!acc) throw new Error(`no accumulator for ${String(fn)}`);
  return acc;
}
