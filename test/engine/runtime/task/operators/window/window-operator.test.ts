import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OperatorTestHarness } from '../../../../../support/harness/index.ts';
import { T0, at, iso, windowJob } from './window-fixtures.ts';

test('keyed tumbling: out-of-order records fire when the watermark reaches end - 1, then the watermark is forwarded', async () => {
  const { create } = windowJob({
    keyBy: 'user',
    window: { kind: 'tumbling', size: '10s' },
    aggregates: 'COUNT(*) AS n, SUM(v) AS total',
  });
  const h = await OperatorTestHarness.open(create);
  await h.processElements([
    at(7_000, { user: 'b', v: 1 }),
    at(12_000, { user: 'a', v: 100 }),
    at(3_000, { user: 'a', v: 2 }),
    at(9_999, { user: 'a', v: 3 }),
    at(0, { user: 'b', v: 4 }),
  ]);
  await h.processWatermark(T0 + 9_998);
  assert.deepEqual(h.output(), [], 'window [0,10s) must not fire before the watermark reaches 9999');
  assert.deepEqual(h.watermarks(), [T0 + 9_998]);
  await h.processWatermark(T0 + 9_999);
  assert.deepEqual(h.output(), [
    { row: { window_start: iso(T0), window_end: iso(T0 + 10_000), user: 'a', n: 2, total: 5 }, ts: T0 + 9_999 },
    { row: { window_start: iso(T0), window_end: iso(T0 + 10_000), user: 'b', n: 2, total: 5 }, ts: T0 + 9_999 },
  ]);
  const last = h.events[h.events.length - 1];
  assert.deepEqual(last, { kind: 'watermark', watermark: T0 + 9_999 }, 'results are emitted before the watermark');
  h.clearOutput();
  await h.endInput();
  assert.deepEqual(
    h.output().map((r) => r.row),
    [{ window_start: iso(T0 + 10_000), window_end: iso(T0 + 20_000), user: 'a', n: 1, total: 100 }],
  );
  assert.equal(h.lateRecordsDropped, 0);
  await h.close();
});

test('output columns: window bounds, key columns in keyBy order with original values, aggregates by alias', async () => {
  const { create } = windowJob({
    keyBy: 'region, user',
    window: { kind: 'tumbling', size: 1000 },
    aggregates: 'COUNT(*) AS n, SUM(v) AS s, MIN(v) AS lo, MAX(v) AS hi, AVG(v) AS mean',
  });
  const h = await OperatorTestHarness.open(create);
  await h.processElements([
    at(10, { user: 7, region: 'eu', v: 4 }),
    at(20, { user: 7, region: 'eu', v: -2 }),
    at(30, { user: 7, region: 'eu', v: 10 }),
  ]);
  await h.endInput();
  const [only] = h.output();
  assert.deepEqual(Object.keys(only.row), [
    'window_start',
    'window_end',
    'region',
    'user',
    'n',
    's',
    'lo',
    'hi',
    'mean',
  ]);
  assert.deepEqual(only.row, {
    window_start: '2024-01-01T00:00:00.000Z',
    window_end: '2024-01-01T00:00:01.000Z',
    region: 'eu',
    user: 7,
    n: 3,
    s: 12,
    lo: -2,
    hi: 10,
    mean: 4,
  });
  await h.close();
});

test('global window (no keyBy): one result per window, no key columns', async () => {
  const { create } = windowJob({ window: { kind: 'tumbling', size: '5s' }, aggregates: 'COUNT(*) AS n, MAX(v) AS hi' });
  const h = await OperatorTestHarness.open(create);
  await h.processElements([at(1, { user: 'a', v: 1 }), at(2, { user: 'b', v: 9 }), at(5_001, { user: 'c', v: 3 })]);
  await h.endInput();
  assert.deepEqual(
    h.output().map((r) => r.row),
    [
      { window_start: iso(T0), window_end: iso(T0 + 5_000), n: 2, hi: 9 },
      { window_start: iso(T0 + 5_000), window_end: iso(T0 + 10_000), n: 1, hi: 3 },
    ],
  );
  await h.close();
});

test('sliding: a record is counted in size/slide windows', async () => {
  const { create } = windowJob({
    keyBy: 'user',
    window: { kind: 'sliding', size: '10s', slide: '5s' },
    aggregates: 'COUNT(*) AS n',
  });
  const h = await OperatorTestHarness.open(create);
  await h.processElements([at(6_000, { user: 'a' }), at(11_000, { user: 'a' })]);
  await h.endInput();
  assert.deepEqual(
    h.output().map((r) => [r.row.window_start, r.row.window_end, r.row.n, r.ts]),
    [
      [iso(T0), iso(T0 + 10_000), 1, T0 + 9_999],
      [iso(T0 + 5_000), iso(T0 + 15_000), 2, T0 + 14_999],
      [iso(T0 + 10_000), iso(T0 + 20_000), 1, T0 + 19_999],
    ],
  );
  await h.close();
});

test('idle input: without watermarks nothing fires; one watermark jump fires every due window by end, then key', async () => {
  const { create } = windowJob({
    keyBy: 'user',
    window: { kind: 'tumbling', size: 1000 },
    aggregates: 'COUNT(*) AS n',
  });
  const h = await OperatorTestHarness.open(create);
  await h.processElements([
    at(2_500, { user: 'b' }),
    at(500, { user: 'b' }),
    at(1_500, { user: 'a' }),
    at(600, { user: 'c' }),
    at(700, { user: 'a' }),
  ]);
  await h.processElements([at(3_500, { user: 'a' })]);
  assert.deepEqual(h.events, [], 'no watermark, no output');
  await h.processWatermark(T0 + 2_999);
  assert.deepEqual(
    h.output().map((r) => [r.row.window_end, r.row.user]),
    [
      [iso(T0 + 1_000), 'a'],
      [iso(T0 + 1_000), 'b'],
      [iso(T0 + 1_000), 'c'],
      [iso(T0 + 2_000), 'a'],
      [iso(T0 + 3_000), 'b'],
    ],
  );
  assert.deepEqual(h.watermarks(), [T0 + 2_999]);
  // A watermark that does not advance changes nothing and is not forwarded again.
  await h.processWatermark(T0 + 2_000);
  assert.deepEqual(h.watermarks(), [T0 + 2_999]);
  await h.close();
});

test('window state is cleared after firing (no allowed lateness)', async () => {
  const { create } = windowJob({
    keyBy: 'user',
    window: { kind: 'tumbling', size: 1000 },
    aggregates: 'COUNT(*) AS n',
  });
  const h = await OperatorTestHarness.open(create);
  await h.processElements([at(1, { user: 'a' }), at(2, { user: 'b' }), at(1_001, { user: 'b' })]);
  assert.equal((await h.backend.size()).entries, 3, 'three windows (each holding its timer)');
  await h.processWatermark(T0 + 999);
  assert.equal((await h.backend.size()).entries, 1);
  await h.endInput();
  assert.equal((await h.backend.size()).entries, 0);
  await h.close();
});

test('bad config and records without event time give clear errors', async () => {
  assert.throws(
    () => windowJob({ window: { kind: 'tumbling', size: '10 parsecs' }, aggregates: 'COUNT(*) AS n' }).create(),
    /^WindowConfigError: nodes\[1\]\.config\.window\.size: invalid duration '10 parsecs'/,
  );
  assert.throws(
    () => windowJob({ window: { kind: 'sliding', size: '1s', slide: '2s' }, aggregates: 'COUNT(*) AS n' }).create(),
    /nodes\[1\]\.config\.window\.slide: window slide \(2000 ms\) must not be larger/,
  );
  assert.throws(
    () => windowJob({ window: { kind: 'tumbling', size: '1s' }, aggregates: 'MEDIAN(v) AS m' }).create(),
    /nodes\[1\]\.config\.aggregates: .*MEDIAN/,
  );
  assert.throws(
    () => windowJob({ keyBy: 'a +', window: { kind: 'tumbling', size: '1s' }, aggregates: 'COUNT(*) AS n' }).create(),
    /nodes\[1\]\.config\.keyBy: /,
  );
  assert.throws(
    () =>
      windowJob({ keyBy: 'user', window: { kind: 'tumbling', size: '1s' }, aggregates: 'COUNT(*) AS user' }).create(),
    /nodes\[1\]\.config\.aggregates: the output column 'user' already exists/,
  );
  assert.throws(
    () => windowJob({ window: { kind: 'hopping', size: '1s' } as never, aggregates: 'COUNT(*) AS n' }).create(),
    /nodes\[1\]\.config\.window\.kind: expected 'tumbling', 'sliding' or 'session', got "hopping"/,
  );
  const h = await OperatorTestHarness.open(
    windowJob({ window: { kind: 'tumbling', size: '1s' }, aggregates: 'COUNT(*) AS n' }).create,
  );
  await assert.rejects(
    h.processBatch({ rows: [{ v: 1 }], ts: [NaN] }),
    /window 'win' received a record without an event time/,
  );
  await h.close();
});

test('a record of a key group the subtask does not own is refused (input not partitioned by keyBy)', async () => {
  const { create } = windowJob({
    keyBy: 'user',
    window: { kind: 'tumbling', size: '1s' },
    aggregates: 'COUNT(*) AS n',
  });
  const h = await OperatorTestHarness.open(create, { subtask: 0, parallelism: 128 });
  let refused = 0;
  for (let i = 0; i < 20; i++) {
    try {
      await h.processElements([at(1, { user: `u${i}` })]);
    } catch (e) {
      assert.match(
        (e as Error).message,
        /outside its key groups 0-0: its input is not partitioned by the window's keyBy/,
      );
      refused++;
    }
  }
  assert.ok(refused >= 15, `most keys belong to other subtasks (refused ${refused})`);
  await h.close();
});
