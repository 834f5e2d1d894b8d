import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findMerge } from '../../../../engine/time/windows/index.ts';

const s = (start: number, end: number) => ({ start, end });

test('a new session that touches nothing is inserted in start order', () => {
  assert.deepEqual(findMerge([], 5, 15), { from: 0, count: 0, start: 5, end: 15 });
  assert.deepEqual(findMerge([s(0, 10), s(40, 50)], 20, 30), { from: 1, count: 0, start: 20, end: 30 });
  assert.deepEqual(findMerge([s(0, 10), s(40, 50)], 60, 70), { from: 2, count: 0, start: 60, end: 70 });
});

test('overlapping and touching sessions merge (TimeWindow.intersects is inclusive)', () => {
  assert.deepEqual(findMerge([s(0, 10)], 5, 15), { from: 0, count: 1, start: 0, end: 15 });
  assert.deepEqual(findMerge([s(0, 10)], 10, 20), { from: 0, count: 1, start: 0, end: 20 });
  assert.deepEqual(findMerge([s(10, 20)], 0, 10), { from: 0, count: 1, start: 0, end: 20 });
  assert.deepEqual(findMerge([s(0, 10)], 2, 4), { from: 0, count: 1, start: 0, end: 10 });
});

test('a bridging record merges the two sessions around it', () => {
  assert.deepEqual(findMerge([s(0, 10), s(15, 25), s(100, 110)], 8, 18), { from: 0, count: 2, start: 0, end: 25 });
});
