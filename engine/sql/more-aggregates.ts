/**
 * Flink's aggregates beyond COUNT, SUM, MIN, MAX and AVG: VAR_POP, VAR_SAMP (VARIANCE),
 * STDDEV_POP, STDDEV_SAMP, FIRST_VALUE, LAST_VALUE and LISTAGG, each with retraction (for
 * aggregates over a changelog). State is plain JSON, as keyed state needs.
 *
 * - Variances: [exact sum, exact sum of squares, count, kind] (kind as AVG's: 0 = integers,
 *   -1 = a DOUBLE was seen). Flink's planner reduces them (Calcite's AggregateReduceFunctionsRule)
 *   to `(SUM(x * x) - SUM(x) * SUM(x) / COUNT(x)) / COUNT(x)` (COUNT(x) - 1 for the sample forms,
 *   NULL for one row) in the argument's type, STDDEV to POWER(that, 0.5) cast back: over integers
 *   every division truncates and so does the root. Measured on Flink 1.20 (the parity corpus).
 * - FIRST_VALUE / LAST_VALUE: the first / last non-NULL value in arrival order; with retraction the
 *   values in arrival order, a retraction taking out the first equal one (as Flink's
 *   First/LastValueWithRetractAggFunction, which keep every value).
 * - LISTAGG(x[, separator]): the non-NULL values in arrival order joined by the separator (',' by
 *   default); the input carries the separator (`[value, separator]`) so the state knows it.
 */
import { exactSumAdd, exactSumMerge, exactSumValue, type ExactSum } from './exact-sum.ts';
import { Decimal } from './decimal.ts';
import { toNumber, toText } from './values.ts';

/** The accumulator shape of aggregates.ts and retract-aggregates.ts (repeated: no import cycle). */
interface RetractingAccumulator {
  create(): unknown;
  add(acc: unknown, value: unknown): unknown;
  merge(a: unknown, b: unknown): unknown;
  result(acc: unknown): unknown;
  retract(acc: unknown, value: unknown): unknown;
}

export type MoreAggregateFn =
  'VAR_POP' | 'VAR_SAMP' | 'VARIANCE' | 'STDDEV_POP' | 'STDDEV_SAMP' | 'FIRST_VALUE' | 'LAST_VALUE' | 'LISTAGG';
export const MORE_AGGREGATE_FNS: readonly MoreAggregateFn[] = [
  'VAR_POP',
  'VAR_SAMP',
  'VARIANCE',
  'STDDEV_POP',
  'STDDEV_SAMP',
  'FIRST_VALUE',
  'LAST_VALUE',
  'LISTAGG',
];

const isNull = (v: unknown): boolean => v === null || v === undefined;

/** A number out of an input, and whether it makes the kind DOUBLE. */
function numberOf(v: unknown): { n: number; double: boolean } | null {
  // A DECIMAL is computed as a DOUBLE here (Flink keeps DECIMAL arithmetic: not measured).
  if (v instanceof Decimal) return { n: v.toNumber(), double: true };
  if (v !== null && typeof v === 'object' && 'toNumber' in v)
    return { n: (v as { toNumber(): number }).toNumber(), double: true }; // AVG's DoubleValue wrapper
  const n = typeof v === 'number' ? v : toNumber(v);
  return n === null ? null : { n, double: !Number.isInteger(n) };
}

type VarAcc = [ExactSum, ExactSum, number, number];

function variance(sample: boolean, root: boolean): RetractingAccumulator {
  const step = (acc: unknown, v: unknown, sign: 1 | -1): unknown => {
    const a = acc as VarAcc;
    const x = numberOf(v);
    if (x === null) return a;
    a[0] = exactSumAdd(a[0], sign * x.n);
    a[1] = exactSumAdd(a[1], sign * x.n * x.n);
    a[2] += sign;
    if (x.double) a[3] = -1;
    return a;
  };
  return {
    create: () => [0, 0, 0, 0],
    add: (acc, v) => step(acc, v, 1),
    retract: (acc, v) => step(acc, v, -1),
    merge: (x, y) => {
      const a = x as VarAcc,
        b = y as VarAcc;
      a[0] = exactSumMerge(a[0], b[0]);
      a[1] = exactSumMerge(a[1], b[1]);
      a[2] += b[2];
      a[3] = Math.min(a[3], b[3]);
      return a;
    },
    result: (acc) => {
      const [s, sq, count, kind] = acc as VarAcc;
      const denominator = sample ? count - 1 : count;
      if (count === 0 || denominator === 0) return null;
      const sum = exactSumValue(s),
        sumSq = exactSumValue(sq);
      const int = kind === 0;
      const div = (a: number, b: number): number => (int ? Math.trunc(a / b) : a / b);
      const v = div(sumSq - div(sum * sum, count), denominator);
      const out = root ? (int ? Math.trunc(Math.sqrt(v)) : Math.sqrt(v)) : v;
      return Number.isFinite(out) ? out || 0 : null;
    },
  };
}

/** FIRST_VALUE / LAST_VALUE: the values in arrival order (retraction needs them all). */
function edgeValue(last: boolean): RetractingAccumulator {
  return {
    create: () => [],
    add: (acc, v) => {
      if (!isNull(v)) (acc as unknown[]).push(v);
      return acc;
    },
    retract: (acc, v) => {
      const values = acc as unknown[];
      const key = JSON.stringify(v);
      const i = values.findIndex((x) => JSON.stringify(x) === key);
      if (i >= 0) values.splice(i, 1);
      return values;
    },
    merge: (a, b) => {
      (a as unknown[]).push(...(b as unknown[]));
      return a;
    },
    result: (acc) => {
      const values = acc as unknown[];
      return values.length === 0 ? null : values[last ? values.length - 1 : 0];
    },
  };
}

/** [separator, values]: arrays, so that the window's copy of stored accumulators copies it whole. */
type ListAcc = [string, string[]];

const listagg: RetractingAccumulator = {
  create: () => [',', []],
  add: (acc, input) => {
    const a = acc as ListAcc;
    if (!Array.isArray(input)) return a; // NULL (or filtered out)
    const [v, sep] = input as [unknown, string];
    const s = toText(v);
    if (s !== null) {
      a[1].push(s);
      a[0] = sep;
    }
    return a;
  },
  retract: (acc, input) => {
    const a = acc as ListAcc;
    const s = Array.isArray(input) ? toText((input as [unknown, string])[0]) : null;
    const i = s === null ? -1 : a[1].indexOf(s);
    if (i >= 0) a[1].splice(i, 1);
    return a;
  },
  merge: (x, y) => {
    const a = x as ListAcc,
      b = y as ListAcc;
    a[1].push(...b[1]);
    if (b[1].length > 0) a[0] = b[0];
    return a;
  },
  result: (acc) => {
    const a = acc as ListAcc;
    return a[1].length === 0 ? null : a[1].join(a[0]);
  },
};

export const MORE_ACCUMULATORS: Record<MoreAggregateFn, RetractingAccumulator> = {
  VAR_POP: variance(false, false),
  VAR_SAMP: variance(true, false),
  VARIANCE: variance(true, false),
  STDDEV_POP: variance(false, true),
  STDDEV_SAMP: variance(true, true),
  FIRST_VALUE: edgeValue(false),
  LAST_VALUE: edgeValue(true),
  LISTAGG: listagg,
};

/** LISTAGG's input: its value paired with the separator (a NULL value stays NULL: ignored). */
export function listaggInput(arg: (row: Record<string, unknown>) => unknown, separator: string) {
  return (row: Record<string, unknown>): unknown => {
    const v = arg(row);
    return isNull(v) ? null : [v, separator];
  };
}
