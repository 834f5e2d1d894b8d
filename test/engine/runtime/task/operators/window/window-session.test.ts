import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OperatorTestHarness } from '../../../../../support/harness/index.ts';
import { T0, at, iso, windowJob } from './window-fixtures.ts';

const session5s = { kind: 'session' as const, gap: '5s' };

test('sessions per key: [first, last + gap), fired when the watermark reaches end - 1', async () => {
  const { create } = windowJob({ keyBy: 'user', window: session5s, aggregates: 'COUNT(*) AS n, SUM(v) AS s' });
  const h = await OperatorTestHarness.open(create);
  await h.processElements([
    at(0, { user: 'a', v: 1 }),
    at(3_000, { user: 'a', v: 2 }),
    at(1_000, { user: 'b', v: 5 }),
    at(20_000, { user: 'a', v: 4 }),
  ]);
  await h.processWatermark(T0 + 7_998);
  assert.deepEqual(
    h.output().map((r) => [r.row.user, r.row.window_start, r.row.window_end, r.row.n]),
    [['b', iso(T0 + 1_000), iso(T0 + 6_000), 1]],
  );
  await h.processWatermark(T0 + 7_999);
  assert.deepEqual(
    h
      .output()
      .map((r) => [r.row.user, r.row.window_end, r.row.s, r.ts])
      .slice(1),
    [['a', iso(T0 + 8_000), 3, T0 + 7_999]],
  );
  await h.endInput();
  assert.deepEqual(
    h
      .output()
      .map((r) => [r.row.user, r.row.window_start, r.row.window_end])
      .slice(2),
    [['a', iso(T0 + 20_000), iso(T0 + 25_000)]],
  );
  assert.equal((await h.backend.size()).entries, 0);
  await h.close();
});

test('a bridging record merges two sessions and their accumulators (across batches, out of order)', async () => {
  const { create } = windowJob({
    keyBy: 'user',
    window: session5s,
    aggregates: 'COUNT(*) AS n, MIN(v) AS lo, MAX(v) AS hi, AVG(v) AS mean',
  });
  const h = await OperatorTestHarness.open(create);
  await h.processElements([at(0, { user: 'a', v: 10 }), at(12_000, { user: 'a', v: 30 })]);
  await h.processWatermark(T0 + 3_000);
  await h.processElements([at(6_000, { user: 'a', v: 20 })]); // [6s,11s) touches neither [0,5s) nor [12s,17s)
  await h.processElements([at(4_000, { user: 'a', v: 5 })]); // [4s,9s) merges [0,5s) and [6s,11s)
  await h.processElements([at(8_000, { user: 'a', v: 50 })]); // [8s,13s) merges [0,11s) with [12s,17s)
  await h.endInput();
  assert.deepEqual(
    h.output().map((r) => r.row),
    [{ window_start: iso(T0), window_end: iso(T0 + 17_000), user: 'a', n: 5, lo: 5, hi: 50, mean: 23 }],
  );
  await h.close();
});

test('touching sessions merge (Flink TimeWindow.intersects is inclusive)', async () => {
  const { create } = windowJob({ keyBy: 'user', window: session5s, aggregates: 'COUNT(*) AS n' });
  const h = await OperatorTestHarness.open(create);
  await h.processElements([at(0, { user: 'a' }), at(5_000, { user: 'a' })]);
  await h.endInput();
  assert.deepEqual(
    h.output().map((r) => [r.row.window_start, r.row.window_end, r.row.n]),
    [[iso(T0), iso(T0 + 10_000), 2]],
  );
  await h.close();
});

test('session lateness: too-late record dropped; within lateness it extends a fired session and fires it again', async () => {
  const { create } = windowJob(
    { keyBy: 'user', window: session5s, aggregates: 'COUNT(*) AS n', allowedLateness: '10s' },
    { lateWired: true },
  );
  const h = await OperatorTestHarness.open(create);
  await h.processElements([at(0, { user: 'a' })]);
  await h.processWatermark(T0 + 6_000);
  assert.deepEqual(
    h.output().map((r) => [r.row.window_end, r.row.n]),
    [[iso(T0 + 5_000), 1]],
  );
  h.clearOutput();
  // [3s,8s) merges with the fired [0,5s): merged [0,8s) has maxTimestamp 7999 > watermark: fires later.
  await h.processElements([at(3_000, { user: 'a' })]);
  assert.deepEqual(h.output(), []);
  await h.processWatermark(T0 + 9_000);
  assert.deepEqual(
    h.output().map((r) => [r.row.window_start, r.row.window_end, r.row.n]),
    [[iso(T0), iso(T0 + 8_000), 2]],
  );
  h.clearOutput();
  // Within lateness, merged window already due: fires at once.
  await h.processElements([at(1_000, { user: 'a' })]);
  assert.deepEqual(
    h.output().map((r) => [r.row.window_end, r.row.n]),
    [[iso(T0 + 8_000), 3]],
  );
  h.clearOutput();
  await h.processWatermark(T0 + 17_999); // 7999 + 10000 <= 17999: cleared
  assert.equal((await h.backend.size()).entries, 0);
  // A new session [2s,7s) merging with nothing, maxTimestamp 6999 + 10000 <= watermark: too late.
  await h.processElements([at(2_000, { user: 'a', tag: 'x' })]);
  assert.deepEqual(h.output('late'), [{ row: { user: 'a', tag: 'x' }, ts: T0 + 2_000 }]);
  assert.deepEqual(h.output(), []);
  await h.close();
});

test('global session window (no keyBy)', async () => {
  const { create } = windowJob({ window: { kind: 'session', gap: 100 }, aggregates: 'COUNT(*) AS n' });
  const h = await OperatorTestHarness.open(create);
  await h.processElements([at(0, { user: 'a' }), at(50, { user: 'b' }), at(500, { user: 'c' })]);
  await h.endInput();
  assert.deepEqual(
    h.output().map((r) => [r.row.window_start, r.row.window_end, r.row.n]),
    [
      [iso(T0), iso(T0 + 150), 2],
      [iso(T0 + 500), iso(T0 + 600), 1],
    ],
  );
  await h.close();
});
