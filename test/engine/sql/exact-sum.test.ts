// SUM/AVG must not depend on the order values arrive in (parallel channels, replays after recovery).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { exactSumAdd, exactSumMerge, exactSumValue, type ExactSum } from '../../../engine/sql/exact-sum.ts';
import { accumulatorFor } from '../../../engine/sql/index.ts';

function rng(seed: number) {
  return () => (seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0) / 2 ** 32;
}
function shuffled<T>(xs: T[], r: () => number): T[] {
  const a = xs.slice();
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}
const sumOf = (xs: number[]) => exactSumValue(xs.reduce<ExactSum>((acc, x) => exactSumAdd(acc, x), 0));

test('plain left-to-right float addition depends on order (why exact sums are needed)', () => {
  assert.notEqual(0.1 + 0.2 + 0.3, 0.1 + (0.2 + 0.3));
  assert.equal(sumOf([0.1, 0.2, 0.3]), sumOf([0.3, 0.2, 0.1]));
  assert.equal(sumOf([0.1, 0.2, 0.3]), 0.6);
});

test('the exact sum is the same for every order and every split into merged parts', () => {
  const r = rng(7);
  const values = Array.from({ length: 2000 }, () => Math.round((r() * 2000 - 1000) * 100) / 100);
  const expected = sumOf(values);
  for (let k = 0; k < 20; k++) {
    const order = shuffled(values, r);
    assert.equal(sumOf(order), expected);
    const cut = Math.floor(r() * order.length);
    const merged = exactSumMerge(
      order.slice(0, cut).reduce<ExactSum>((a, x) => exactSumAdd(a, x), 0),
      order.slice(cut).reduce<ExactSum>((a, x) => exactSumAdd(a, x), 0),
    );
    assert.equal(exactSumValue(merged), expected);
  }
});

test('cancellation that plain addition gets wrong is exact', () => {
  assert.equal(sumOf([1e100, 1, -1e100]), 1);
  assert.equal(sumOf([2 ** 53, 1, 1]), 2 ** 53 + 2);
});

test('integers stay plain numbers; specials propagate', () => {
  assert.equal(exactSumAdd(exactSumAdd(0, 3), 4), 7);
  assert.equal(sumOf([1, Infinity, 2.5]), Infinity);
  assert.ok(Number.isNaN(sumOf([Infinity, -Infinity])));
});

test('SUM and AVG accumulators survive a JSON round trip (checkpoint) and merge without aliasing', () => {
  for (const fn of ['SUM', 'AVG'] as const) {
    const acc = accumulatorFor(fn);
    let a = acc.create();
    for (const v of [0.1, 0.2, 0.3, null, '0.4']) a = acc.add(a, v);
    const restored = JSON.parse(JSON.stringify(a));
    assert.deepEqual(acc.result(restored), acc.result(a));
    const b = acc.add(acc.create(), 1.5);
    const bBefore = JSON.stringify(b);
    const m = acc.merge(acc.create(), b);
    acc.add(m, 10);
    assert.equal(JSON.stringify(b), bBefore, 'merge must not alias its second argument');
  }
  assert.equal(
    accumulatorFor('SUM').result(
      [0.1, 0.2, 0.30000000000000004].reduce((a, v) => accumulatorFor('SUM').add(a, v), null as unknown),
    ),
    0.6000000000000001,
  );
});
