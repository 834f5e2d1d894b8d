/**
 * Order-independent summation for SUM and AVG.
 *
 * A parallel or restored job adds the same values in a different order (channels interleave
 * differently run to run), and plain floating-point addition is not associative: `SUM(amount)`
 * over decimals would differ in the last digits between parallelism 1 and 4, or between a run
 * with failures and one without. Weir promises identical results, so sums are exact:
 * - while every value is an integer and the total stays a safe integer, a plain number (exact);
 * - otherwise Shewchuk's non-overlapping partials (as Python's `math.fsum`), whose result is the
 *   correctly rounded sum of all values whatever their order.
 * The state is a plain JSON value (number or number[]), so it checkpoints like any accumulator.
 */

export type ExactSum = number | number[];

export function exactSumAdd(acc: ExactSum, x: number): ExactSum {
  if (typeof acc === 'number') {
    if (!Number.isFinite(acc) || !Number.isFinite(x)) return acc + x;
    if (Number.isInteger(x)) {
      const s = acc + x;
      if (Number.isSafeInteger(s) && Number.isSafeInteger(acc)) return s;
    }
    acc = acc === 0 ? [] : [acc];
  }
  if (!Number.isFinite(x)) return exactSumValue(acc) + x;
  addPartial(acc, x);
  return acc;
}

export function exactSumMerge(a: ExactSum, b: ExactSum): ExactSum {
  if (typeof b === 'number') return exactSumAdd(a, b);
  let acc = a;
  for (const p of b) acc = exactSumAdd(acc, p);
  return acc;
}

export function exactSumValue(acc: ExactSum): number {
  return typeof acc === 'number' ? acc : roundPartials(acc);
}

/** Adds x to the partials in place, keeping them non-overlapping and increasing in magnitude. */
function addPartial(partials: number[], x: number): void {
  let i = 0;
  for (let j = 0; j < partials.length; j++) {
    let y = partials[j];
    if (Math.abs(x) < Math.abs(y)) {
      const t = x;
      x = y;
      y = t;
    }
    const hi = x + y;
    const lo = y - (hi - x);
    if (lo !== 0) partials[i++] = lo;
    x = hi;
  }
  partials.length = i;
  partials.push(x);
}

/** The correctly rounded value of the partials' exact sum (round-half-even corrected). */
function roundPartials(partials: readonly number[]): number {
  let n = partials.length;
  if (n === 0) return 0;
  let hi = partials[--n];
  let lo = 0;
  while (n > 0) {
    const x = hi;
    const y = partials[--n];
    hi = x + y;
    lo = y - (hi - x);
    if (lo !== 0) break;
  }
  if (n > 0 && ((lo < 0 && partials[n - 1] < 0) || (lo > 0 && partials[n - 1] > 0))) {
    const y = lo * 2;
    const x = hi + y;
    if (y === x - hi) hi = x;
  }
  return hi;
}
