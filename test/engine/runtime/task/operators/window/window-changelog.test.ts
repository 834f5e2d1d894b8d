/**
 * The window operator over a changelog input (Flink 1.19+, FLINK-20281): -U/-D rows retract from
 * the window(s) of their event time, a window fires once at the watermark and emits nothing when
 * no row is left, late changes are dropped and counted. Checked by hand on small cases and
 * against an independent reference on random changelogs, with a snapshot/restore mid-run on every
 * state backend.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import type { JobNodeOf, WindowConfig } from '../../../../../../engine/graph/types.ts';
import type { RecordBatch, Row } from '../../../../../../engine/contracts/operator.ts';
import { createWindowOperator } from '../../../../../../engine/runtime/task/operators/window/index.ts';
import {
  BACKEND_KINDS,
  createHarnessBackends,
  KeyedParallelHarness,
  OperatorTestHarness,
} from '../../../../../support/harness/index.ts';
import { parseKeyBy } from '../../../../../../engine/sql/index.ts';
import { jobAround } from '../job-around.ts';
import { canonical, iso } from './window-fixtures.ts';
import {
  CHANGELOG_AGGREGATES,
  randomChangelog,
  referenceChangelogWindows,
  type ChangelogEvent,
} from './changelog-fixtures.ts';

const backends = await createHarnessBackends();
after(() => backends.dispose());

function changelogWindow(config: WindowConfig) {
  const node: JobNodeOf<'window'> = { id: 'win', type: 'window', config };
  const job = jobAround(node, { changelogInput: true });
  return () => createWindowOperator(node, job);
}

const change = (kind: RecordBatch['kinds'] & object, rows: Row[], ts: number[]): RecordBatch => ({
  rows,
  ts,
  kinds: kind,
});

test('a row inserted then deleted in one window leaves no output row; an update moves a row between windows', async () => {
  const create = changelogWindow({
    keyBy: 'user',
    window: { kind: 'tumbling', size: 1000 },
    aggregates: 'COUNT(*) AS n, SUM(v) AS s, MAX(v) AS hi',
  });
  for (const kind of BACKEND_KINDS) {
    const h = await OperatorTestHarness.open(create, { backend: backends.factory(kind, `small-${kind}`) });
    await h.processBatch(
      change(
        ['+I', '+I', '+I', '-D', '-U', '+U'],
        [
          { user: 'a', v: 5 },
          { user: 'b', v: 3 },
          { user: 'b', v: 9 },
          { user: 'a', v: 5 },
          { user: 'b', v: 9 },
          { user: 'b', v: 4 },
        ],
        [100, 200, 300, 100, 300, 1200],
      ),
    );
    await h.processWatermark(999);
    await h.processWatermark(1999);
    assert.deepEqual(
      h.output().map((r) => r.row),
      [
        { window_start: iso(0), window_end: iso(1000), user: 'b', n: 1, s: 3, hi: 3 },
        { window_start: iso(1000), window_end: iso(2000), user: 'b', n: 1, s: 4, hi: 4 },
      ],
      `${kind}: a's window is empty (no row), b's 9 moved out of the first window into the second`,
    );
    assert.equal(h.lateRecordsDropped, 0);
    // A change for a window already fired (and cleaned up: no allowed lateness) is late.
    await h.processBatch(change(['-D'], [{ user: 'b', v: 3 }], [200]));
    assert.equal(h.lateRecordsDropped, 1, `${kind}: the late retraction is counted`);
    assert.equal(h.output().length, 2, `${kind}: and changes nothing`);
    assert.ok(
      h.events.every((e) => e.kind !== 'records' || e.kinds === undefined),
      'the window output is append-only',
    );
    await h.close();
  }
});

test('MAX over a changelog falls back to the next value when the current max is retracted', async () => {
  const create = changelogWindow({
    keyBy: 'user',
    window: { kind: 'tumbling', size: 1000 },
    aggregates: 'MAX(v) AS hi, MIN(v) AS lo',
  });
  const h = await OperatorTestHarness.open(create);
  await h.processBatch(
    change(
      ['+I', '+I', '+I'],
      [1, 9, 4].map((v) => ({ user: 'a', v })),
      [1, 2, 3],
    ),
  );
  await h.processBatch(
    change(
      ['-D', '-D'],
      [9, 1].map((v) => ({ user: 'a', v })),
      [2, 1],
    ),
  );
  await h.processWatermark(999);
  assert.deepEqual(
    h.output().map((r) => [r.row.hi, r.row.lo]),
    [[4, 4]],
  );
  await h.close();
});

test('with allowedLateness a change for a fired window refires it, and nothing once it is empty', async () => {
  const create = changelogWindow({
    keyBy: 'user',
    window: { kind: 'tumbling', size: 1000 },
    aggregates: 'COUNT(*) AS n, SUM(v) AS s',
    allowedLateness: 500,
  });
  const h = await OperatorTestHarness.open(create);
  await h.processBatch(
    change(
      ['+I', '+I'],
      [
        { user: 'a', v: 2 },
        { user: 'a', v: 5 },
      ],
      [10, 20],
    ),
  );
  await h.processWatermark(1000);
  await h.processBatch(change(['-D'], [{ user: 'a', v: 5 }], [20])); // within lateness: refires
  await h.processBatch(change(['-D'], [{ user: 'a', v: 2 }], [10])); // empties it: no row
  await h.processWatermark(1499); // cleaned up (999 + 500)
  await h.processBatch(change(['+I'], [{ user: 'a', v: 7 }], [30])); // too late now
  assert.deepEqual(
    h.output().map((r) => `${r.row.n}/${r.row.s}`),
    ['2/7', '1/2'],
  );
  assert.equal(h.lateRecordsDropped, 1);
  await h.close();
});

test('a changelog batch into a window planned append-only fails with a clear error', async () => {
  const node: JobNodeOf<'window'> = {
    id: 'win',
    type: 'window',
    config: { keyBy: 'user', window: { kind: 'tumbling', size: 1000 }, aggregates: 'COUNT(*) AS n' },
  };
  const h = await OperatorTestHarness.open(() => createWindowOperator(node, jobAround(node)));
  await assert.rejects(
    h.processBatch(change(['-D'], [{ user: 'a' }], [1])),
    /window 'win' received a changelog, but its job graph gives it an append-only input/,
  );
  await h.close();
});

test('session windows refuse a changelog input with a clear error', () => {
  assert.throws(
    changelogWindow({ keyBy: 'user', window: { kind: 'session', gap: 100 }, aggregates: 'COUNT(*) AS n' }),
    /config\.window\.kind: session windows do not take a changelog input/,
  );
});

async function drive(h: OperatorTestHarness | KeyedParallelHarness, events: ChangelogEvent[]): Promise<void> {
  for (const e of events) {
    if (e.kind === 'batch') await h.processBatch({ rows: e.rows, ts: e.ts, kinds: e.kinds });
    else await h.processWatermark(e.watermark);
  }
}

const SHAPES = [
  { name: 'tumbling', window: { kind: 'tumbling', size: 100 }, size: 100, slide: 100 },
  { name: 'sliding', window: { kind: 'sliding', size: 150, slide: 50 }, size: 150, slide: 50 },
] as const;

for (const [i, shape] of SHAPES.entries()) {
  test(`${shape.name} over a random changelog matches the reference, across a snapshot/restore, on every backend`, async () => {
    const { events, retractions } = randomChangelog({ seed: 11 + i, count: 1500, keys: 4, jitter: 90, delay: 40 });
    const want = referenceChangelogWindows(events, shape.size, shape.slide);
    assert.ok(retractions > 500, 'the input retracts many rows');
    assert.ok(want.late > 20, `some changes are late (${want.late})`);
    assert.ok(want.empty > 5, `some windows emptied out before firing (${want.empty})`);
    const create = changelogWindow({ keyBy: 'user', window: shape.window, aggregates: CHANGELOG_AGGREGATES });
    const half = Math.floor(events.length / 2);
    for (const kind of BACKEND_KINDS) {
      const backend = backends.factory(kind, `random-${shape.name}-${kind}`);
      const first = await OperatorTestHarness.open(create, { backend });
      await drive(first, events.slice(0, half));
      const snap = await first.snapshot(1);
      const before = first.output();
      await first.close();
      const second = await OperatorTestHarness.open(create, { backend }, [snap]);
      await drive(second, events.slice(half));
      const got = [...before, ...second.output()].map((r) => ({ row: r.row, ts: 0 }));
      assert.deepEqual(canonical(got), canonical(want.out.map((row) => ({ row, ts: 0 }))), `${kind}: results`);
      assert.equal(first.lateRecordsDropped + second.lateRecordsDropped, want.late, `${kind}: late changes`);
      await second.close();
    }
  });
}

test('tumbling over a random changelog, rescaled 1 -> 4 -> 1 through snapshots, matches the reference on every backend', async () => {
  const { events } = randomChangelog({ seed: 31, count: 2000, keys: 12, jitter: 90, delay: 40 });
  const want = referenceChangelogWindows(events, 100, 100);
  const create = changelogWindow({
    keyBy: 'user',
    window: { kind: 'tumbling', size: 100 },
    aggregates: CHANGELOG_AGGREGATES,
  });
  const keyOf = parseKeyBy('user').keyOf;
  const a = Math.floor(events.length / 3);
  const b = Math.floor((2 * events.length) / 3);
  for (const kind of BACKEND_KINDS) {
    const backend = backends.factory(kind, `rescale-${kind}`);
    const p1 = await KeyedParallelHarness.open(create, { parallelism: 1, keyOf, backend });
    await drive(p1, events.slice(0, a));
    const p4 = await KeyedParallelHarness.open(create, { parallelism: 4, keyOf, backend }, await p1.snapshot(1));
    await drive(p4, events.slice(a, b));
    const back = await KeyedParallelHarness.open(create, { parallelism: 1, keyOf, backend }, await p4.snapshot(2));
    await drive(back, events.slice(b));
    const got = [...p1.output(), ...p4.output(), ...back.output()].map((r) => ({ row: r.row, ts: 0 }));
    assert.deepEqual(canonical(got), canonical(want.out.map((row) => ({ row, ts: 0 }))), `${kind}: results`);
    const late = p1.lateRecordsDropped() + p4.lateRecordsDropped() + back.lateRecordsDropped();
    assert.equal(late, want.late, `${kind}: late changes`);
    for (const s of p4.subtasks) assert.ok(s.output().length > 0, `${kind}: subtask ${s.subtask} fired windows`);
    await p1.close();
    await p4.close();
    await back.close();
  }
});

test('restoring append-only window state into a changelog plan fails with a clear error, not wrong results', async () => {
  const config: WindowConfig = { keyBy: 'user', window: { kind: 'tumbling', size: 1000 }, aggregates: 'MAX(v) AS hi' };
  const node: JobNodeOf<'window'> = { id: 'win', type: 'window', config };
  const before = await OperatorTestHarness.open(() => createWindowOperator(node, jobAround(node)));
  await before.processElements([{ row: { user: 'a', v: 1 }, ts: 5 }]);
  const snap = await before.snapshot(1);
  await before.close();
  const after = await OperatorTestHarness.open(changelogWindow(config), {}, [snap]);
  await assert.rejects(
    after.processBatch(change(['-D'], [{ user: 'a', v: 1 }], [5])),
    /window 'win': its state holds 1 accumulators per entry, but the job now computes 2 .*start the job fresh/,
  );
  await after.close();
});
