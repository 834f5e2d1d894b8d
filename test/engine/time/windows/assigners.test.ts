import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  tumblingWindows,
  slidingWindows,
  sessionWindows,
  windowStart,
  isoTime,
} from '../../../../engine/time/windows/index.ts';

function ends(assigner: ReturnType<typeof slidingWindows>, ts: number): number[] {
  const buf = new Float64Array(assigner.windowsPerRecord + 1);
  const n = assigner.assignEnds(ts, buf);
  return [...buf.subarray(0, n)];
}

test('windowStart aligns to the epoch, also for negative timestamps (Flink getWindowStartWithOffset)', () => {
  assert.equal(windowStart(0, 0, 10), 0);
  assert.equal(windowStart(9, 0, 10), 0);
  assert.equal(windowStart(10, 0, 10), 10);
  assert.equal(windowStart(-1, 0, 10), -10);
  assert.equal(windowStart(-10, 0, 10), -10);
  assert.equal(windowStart(17, 5, 10), 15);
});

test('tumbling: one window [start, start + size), end exclusive', () => {
  const a = tumblingWindows(10_000);
  assert.deepEqual(ends(a, 0), [10_000]);
  assert.deepEqual(ends(a, 9_999), [10_000]);
  assert.deepEqual(ends(a, 10_000), [20_000]);
  assert.equal(isoTime(Date.UTC(2024, 0, 1, 0, 0, 10)), '2024-01-01T00:00:10.000Z');
});

test('sliding: a record belongs to size/slide windows, latest first', () => {
  const a = slidingWindows(10, 5);
  assert.equal(a.windowsPerRecord, 2);
  assert.deepEqual(ends(a, 7), [15, 10]);
  assert.deepEqual(ends(a, 5), [15, 10]);
  assert.deepEqual(ends(a, 4), [10, 5]);
  const b = slidingWindows(10, 3); // not a divisor: 3 or 4 windows per record
  for (let ts = 0; ts < 40; ts++) {
    const got = ends(b, ts);
    const want: number[] = [];
    for (let s = Math.floor(ts / 3) * 3; s > ts - 10; s -= 3) want.push(s + 10);
    assert.deepEqual(got, want, `ts ${ts}`);
    for (const e of got) assert.ok(e - 10 <= ts && ts < e);
  }
});

test('bad window parameters are refused with a readable message', () => {
  assert.throws(() => tumblingWindows(0), /window size must be a positive whole number/);
  assert.throws(() => slidingWindows(10, 20), /slide \(20 ms\) must not be larger than the window size/);
  assert.throws(() => sessionWindows(-1), /session gap/);
});
