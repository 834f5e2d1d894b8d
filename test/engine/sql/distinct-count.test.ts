/**
 * COUNT(DISTINCT x) keeps its count beside the accumulator (engine/sql/distinct-count.ts): after
 * every add, retract, merge, JSON round trip (a restore) and copy, the result equals the number of
 * distinct values counted afresh, and the stored state is the same plain object as before.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { accumulatorFor, retractingAccumulatorFor } from '../../../engine/sql/index.ts';
import { distinctKey } from '../../../engine/sql/distinct-count.ts';

/** A deterministic stream of small values, numbers and their text twins mixed. */
function values(seed: number, n: number): unknown[] {
  let s = seed;
  const out: unknown[] = [];
  for (let i = 0; i < n; i++) {
    s = (s * 1103515245 + 12345) % 2147483648;
    const v = s % 40;
    out.push(v % 7 === 0 ? null : v % 3 === 0 ? String(v) : v);
  }
  return out;
}

const fresh = (acc: unknown): number => Object.keys(JSON.parse(JSON.stringify(acc)) as object).length;

test('append-only COUNT(DISTINCT): the count follows adds, merges, restores and copies', () => {
  const a = accumulatorFor('COUNT', true);
  let acc = a.create();
  for (const v of values(3, 300)) {
    acc = a.add(acc, v);
    assert.equal(a.result(acc), fresh(acc));
  }
  let other = a.create();
  for (const v of values(11, 100)) other = a.add(other, v);
  assert.equal(a.result(other), fresh(other));
  acc = a.merge(acc, other);
  assert.equal(a.result(acc), fresh(acc), 'a merge recounts');
  let restored = JSON.parse(JSON.stringify(acc)) as unknown;
  assert.equal(a.result(restored), fresh(acc));
  restored = a.add(restored, 'new value');
  assert.equal(a.result(restored), fresh(acc) + 1);
  assert.equal(a.result(acc), fresh(acc), 'the original is not changed by its restored twin');
  assert.deepEqual(Object.values(acc as object), new Array(fresh(acc)).fill(1), 'the state format is unchanged');
});

test('retracting COUNT(DISTINCT): the count follows adds, retracts and merges', () => {
  const a = retractingAccumulatorFor('COUNT', true);
  let acc = a.create();
  const vs = values(5, 400);
  for (let i = 0; i < vs.length; i++) {
    acc = i % 3 === 2 ? a.retract(acc, vs[i - 1]) : a.add(acc, vs[i]);
    assert.equal(a.result(acc), fresh(acc));
  }
  for (const v of vs) acc = a.retract(acc, v);
  assert.equal(a.result(acc), fresh(acc));
  let other = a.create();
  for (const v of values(9, 50)) other = a.add(other, v);
  acc = a.merge(acc, other);
  assert.equal(a.result(acc), fresh(acc), 'a merge recounts');
  acc = a.retract(acc, 'never added');
  assert.equal(a.result(acc), fresh(acc));
});

test('a value keys a distinct accumulator by its JSON text, numbers included', () => {
  const odd = [0, -0, 1, -1, 0.1, 1 / 3, 1e21, 1e-7, -1.5e300, 2 ** 53 + 2, NaN, Infinity, -Infinity];
  for (const v of [...odd, '1', 'a"b', true, { x: 1 }, [1, '1']])
    assert.equal(distinctKey(v), JSON.stringify(v), String(v));
  const a = accumulatorFor('COUNT', true);
  assert.deepEqual(a.add(a.add(a.create(), 1e21), '1e+21'), { '1e+21': 1, '"1e+21"': 1 });
});
