/**
 * Property-based (fast-check): decimalFromDouble's arithmetic fast path gives exactly the Decimal
 * (unscaled, scale, precision, or null) of the shortest-text path it short-cuts, for amounts with
 * a few decimals (the common case), whole numbers, halves at the rounding edge and any double.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { decimalFromDouble, decimalFromShortestText } from '../../../engine/sql/decimal.ts';

const same = (x: number, p: number, s: number) => {
  const fast = decimalFromDouble(x, p, s);
  const slow = decimalFromShortestText(x, p, s);
  assert.deepEqual(
    fast && { u: fast.unscaled, s: fast.scale, p: fast.precision },
    slow && { u: slow.unscaled, s: slow.scale, p: slow.precision },
    `decimalFromDouble(${x}, ${p}, ${s})`,
  );
};

const precision = fc.integer({ min: 1, max: 38 });
const scale = fc.integer({ min: 0, max: 18 });

test('a few decimals, as amounts are written: fast path equals the text path', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: -(2 ** 53), max: 2 ** 53 }),
      fc.integer({ min: 0, max: 8 }),
      precision,
      scale,
      (n, digits, p, s) => same(n / 10 ** digits, p, s),
    ),
    { numRuns: 20_000 },
  );
});

test('any double, including huge, tiny, negative zero and non-finite: fast path equals the text path', () => {
  fc.assert(
    fc.property(fc.double(), precision, scale, (x, p, s) => same(x, p, s)),
    { numRuns: 20_000 },
  );
  for (const x of [0, -0, 0.5, 1.005, 2.675, -2.5, 9.995, 99.995, 1e21, 1e-7, 2 ** 51, 2 ** 53, 0.1 + 0.2])
    for (const s of [0, 1, 2, 3, 10]) for (const p of [1, 2, 3, 10, 38]) same(x, p, s);
});
