/**
 * Property-based (fast-check): SUM of DECIMALs, whose accumulator keeps the unscaled sum as a JS
 * number while it is a safe integer and as digits beyond, equals the BigInt sum exactly: across
 * 2^53, with mixed scales, after a JSON round trip (a checkpoint) and when partial sums merge.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { accumulatorFor } from '../../../engine/sql/index.ts';
import { Decimal } from '../../../engine/sql/decimal.ts';

const sum = accumulatorFor('SUM');
const big = 2n ** 53n;
const unscaled = fc.oneof(
  fc.bigInt({ min: -(10n ** 6n), max: 10n ** 6n }),
  fc.bigInt({ min: big - 1000n, max: big + 1000n }),
  fc.bigInt({ min: -big - 1000n, max: -big + 1000n }),
  fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }),
);

test('SUM of DECIMALs is the exact BigInt sum, through checkpoints and merges', () => {
  fc.assert(
    fc.property(fc.array(unscaled, { maxLength: 40 }), fc.nat(), fc.boolean(), (us, split, viaJson) => {
      const values = us.map((u) => new Decimal(u, 2, 38));
      const cut = values.length ? split % values.length : 0;
      let a = sum.create(),
        b = sum.create();
      for (const v of values.slice(0, cut)) a = sum.add(a, v);
      if (viaJson) a = JSON.parse(JSON.stringify(a));
      for (const v of values.slice(cut)) b = sum.add(b, v);
      const got = sum.result(sum.merge(a, b));
      if (values.length === 0) return assert.equal(got, null);
      const exact = us.reduce((x, y) => x + y, 0n);
      assert.equal(got, new Decimal(exact, 2, 38).toNumber());
    }),
    { numRuns: 3_000 },
  );
});

test('a sum crossing 2^53 and back keeps every digit', () => {
  let a = sum.create();
  for (const u of [big - 1n, 1n, 1n, -3n]) a = sum.add(a, new Decimal(u, 0, 38));
  assert.deepEqual(a, { u: Number(big - 2n), s: 0 });
});
