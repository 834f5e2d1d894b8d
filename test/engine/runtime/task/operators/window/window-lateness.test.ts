import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OperatorTestHarness } from '../../../../../support/harness/index.ts';
import { T0, at, iso, windowJob } from './window-fixtures.ts';

const tumbling10s = { kind: 'tumbling' as const, size: '10s' };

test('records for a window already fired and cleared are dropped and counted (no allowed lateness)', async () => {
  const { create } = windowJob({ keyBy: 'user', window: tumbling10s, aggregates: 'COUNT(*) AS n' });
  const h = await OperatorTestHarness.open(create);
  await h.processElements([at(1_000, { user: 'a' })]);
  await h.processWatermark(T0 + 9_999);
  await h.processElements([at(2_000, { user: 'a' }), at(9_999, { user: 'b' }), at(10_000, { user: 'a' })]);
  assert.equal(h.lateRecordsDropped, 2, 'ts 2000 and 9999 belong to [0,10s), whose maxTimestamp 9999 <= watermark');
  await h.endInput();
  assert.deepEqual(
    h.output().map((r) => [r.row.window_end, r.row.user, r.row.n]),
    [
      [iso(T0 + 10_000), 'a', 1],
      [iso(T0 + 20_000), 'a', 1],
    ],
  );
  assert.deepEqual(h.output('late'), [], 'late port not wired: nothing emitted on it');
  await h.close();
});

test('with the late port wired, too-late records go out on it as the original row with its timestamp', async () => {
  const { create } = windowJob(
    { keyBy: 'user', window: tumbling10s, aggregates: 'COUNT(*) AS n' },
    { lateWired: true },
  );
  const h = await OperatorTestHarness.open(create);
  await h.processElements([at(1_000, { user: 'a', v: 1 })]);
  await h.processWatermark(T0 + 15_000);
  const lateRow = { user: 'a', v: 2, extra: 'kept' };
  await h.processElements([at(3_000, lateRow), at(16_000, { user: 'a', v: 3 })]);
  assert.deepEqual(h.output('late'), [{ row: lateRow, ts: T0 + 3_000 }]);
  assert.equal(h.lateRecordsDropped, 0, 'records sent to the late port are not dropped');
  await h.close();
});

test('allowed lateness: a fired window fires again at once for each late record, and is cleared at end - 1 + lateness', async () => {
  const { create } = windowJob({
    keyBy: 'user',
    window: tumbling10s,
    aggregates: 'COUNT(*) AS n, SUM(v) AS s',
    allowedLateness: '5s',
  });
  const h = await OperatorTestHarness.open(create);
  await h.processElements([at(1_000, { user: 'a', v: 1 })]);
  await h.processWatermark(T0 + 9_999);
  assert.deepEqual(
    h.output().map((r) => [r.row.n, r.row.s]),
    [[1, 1]],
    'on-time firing',
  );
  h.clearOutput();

  await h.processElements([at(2_000, { user: 'a', v: 10 }), at(3_000, { user: 'a', v: 100 })]);
  assert.deepEqual(
    h.output().map((r) => [r.row.window_end, r.row.n, r.row.s, r.ts]),
    [
      [iso(T0 + 10_000), 2, 11, T0 + 9_999],
      [iso(T0 + 10_000), 3, 111, T0 + 9_999],
    ],
    'one late firing per late record, each with the updated (accumulated) result',
  );
  h.clearOutput();

  // A first record for a window whose end already passed, but within lateness, fires at once too.
  await h.processElements([at(4_000, { user: 'b', v: 7 })]);
  assert.deepEqual(
    h.output().map((r) => [r.row.user, r.row.n]),
    [['b', 1]],
  );
  h.clearOutput();

  await h.processWatermark(T0 + 14_998);
  assert.deepEqual(h.output(), [], 'no firing when only the watermark moves within lateness');
  await h.processElements([at(5_000, { user: 'a', v: 1_000 })]);
  assert.deepEqual(
    h.output().map((r) => r.row.s),
    [1_111],
    'still within lateness at watermark 14998',
  );
  h.clearOutput();

  await h.processWatermark(T0 + 14_999); // = maxTimestamp 9999 + lateness 5000: state cleared
  assert.equal((await h.backend.size()).entries, 0, 'window and timer state cleared');
  await h.processElements([at(6_000, { user: 'a', v: 1 })]);
  assert.equal(h.lateRecordsDropped, 1);
  assert.deepEqual(h.output(), []);
  await h.close();
});

test('allowed lateness keeps late records out of the drop count while their window lives (sliding)', async () => {
  const { create } = windowJob({
    keyBy: 'user',
    window: { kind: 'sliding', size: '10s', slide: '5s' },
    aggregates: 'COUNT(*) AS n',
  });
  const h = await OperatorTestHarness.open(create);
  await h.processWatermark(T0 + 9_999);
  // ts 7000 is in [0,10s) (late, skipped) and [5s,15s) (not late): it is counted there, not dropped.
  await h.processElements([at(7_000, { user: 'a' })]);
  assert.equal(h.lateRecordsDropped, 0);
  await h.endInput();
  assert.deepEqual(
    h.output().map((r) => [r.row.window_start, r.row.n]),
    [[iso(T0 + 5_000), 1]],
  );
  await h.close();
});
