/**
 * The interval join against an independent reference: a nested loop over every pair of on-time
 * left and right records (on time = above their own source's watermark when read) with equal keys
 * and `L.ts BETWEEN R.ts + lower AND R.ts + upper`, result time max(L.ts, R.ts). Randomized
 * out-of-order input on two sources of different speeds, at parallelism 1 and 4 and across
 * snapshot/restore with rescaling 1 -> 4 -> 1, on every backend; guards assert the input really has
 * late records and matches; after the final watermark no state is left (it is dropped as the
 * watermark passes), and mid-stream the buffered rows stay within the join's time horizon.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import type { JobNodeOf } from '../../../../../../engine/graph/types.ts';
import type { Row } from '../../../../../../engine/contracts/operator.ts';
import {
  createIntervalJoinOperator,
  JOIN_TABLE,
} from '../../../../../../engine/runtime/task/operators/relational/index.ts';
import { parseKeyBy } from '../../../../../../engine/sql/index.ts';
import { BACKEND_KINDS, createHarnessBackends, OperatorTestHarness } from '../../../../../support/harness/index.ts';
import { canonicalRow, drivePhased, onTime, PHASES, randomSides, type DriveEvent } from './relational-fixtures.ts';

const SELECT = 'L.user, L.id AS lid, R.id AS rid, L.v + R.v AS vsum, R.region';

function reference(events: DriveEvent[], lower: number, upper: number): string[] {
  const out: string[] = [];
  const rights = onTime(events, 1);
  for (const l of onTime(events, 0)) {
    for (const r of rights) {
      if (l.row.user !== r.row.user) continue;
      if (l.ts < r.ts + lower || l.ts > r.ts + upper) continue;
      const row: Row = {
        user: l.row.user,
        lid: l.row.id,
        rid: r.row.id,
        vsum: (l.row.v as number) + (r.row.v as number),
        region: r.row.region,
      };
      out.push(`${canonicalRow(row)} @${Math.max(l.ts, r.ts)}`);
    }
  }
  return out.sort();
}

const CASES = [
  { name: 'lower -50ms, upper 30ms', lower: -50, upper: 30 },
  { name: 'one-sided: lower 0, upper 80ms', lower: 0, upper: 80 },
  { name: 'negative window: lower -120ms, upper -20ms', lower: -120, upper: -20 },
];

const backends = await createHarnessBackends();
after(() => backends.dispose());

for (const [i, c] of CASES.entries()) {
  const node: JobNodeOf<'join.interval'> = {
    id: 'j',
    type: 'join.interval',
    config: { leftKey: 'user', rightKey: 'user', lower: c.lower, upper: c.upper, select: SELECT },
  };
  // The right source is twice as fast in event time: the valve holds the watermark to the left.
  const events = randomSides(90 + i, 3000, [
    { keys: 9, step: 4, jitter: 120, delay: 50, tag: 'l' },
    { keys: 9, step: 8, jitter: 120, delay: 50, tag: 'r' },
  ]);
  const want = reference(events, c.lower, c.upper);
  const lateIn = events.reduce(
    (n, e) => n + (e.kind === 'batch' ? e.ts.filter((t, j) => t <= e.sourceWatermarks[j]).length : 0),
    0,
  );
  for (const kind of BACKEND_KINDS) {
    for (const ph of PHASES) {
      test(`interval join ${c.name} vs reference: ${kind}, ${ph.name}`, async () => {
        assert.ok(want.length > 200, `the input joins (${want.length} pairs)`);
        assert.ok(lateIn > 20, `the input has late records (${lateIn})`);
        const got = await drivePhased(events, {
          create: () => createIntervalJoinOperator(node),
          backend: backends.factory(kind, `join-${kind}`),
          keyOf: [parseKeyBy('user').keyOf, parseKeyBy('user').keyOf],
          phases: ph.phases,
          table: JOIN_TABLE,
        });
        assert.ok(
          got.changes.every((x) => x.kind === '+I'),
          'append-only output',
        );
        assert.deepEqual(got.changes.map((x) => `${canonicalRow(x.row)} @${x.ts}`).sort(), want);
        assert.equal(got.late, lateIn, 'every late record is counted');
        assert.equal(got.finalEntries, 0, 'no state is left after the final watermark');
      });
    }
  }
}

test('interval join: buffered rows are dropped as the watermark passes their horizon', async () => {
  const node: JobNodeOf<'join.interval'> = {
    id: 'j',
    type: 'join.interval',
    config: { leftKey: 'user', rightKey: 'user', lower: -100, upper: 50, select: 'L.id AS l, R.id AS r' },
  };
  for (const kind of BACKEND_KINDS) {
    const h = await OperatorTestHarness.open(() => createIntervalJoinOperator(node), {
      backend: backends.factory(kind, `horizon-${kind}`),
    });
    const count = async () => {
      let n = 0;
      for await (const [, rows] of h.backend.table<unknown[]>(JOIN_TABLE).scan()) n += rows.length;
      return n;
    };
    await h.processElements([{ row: { user: 'a', id: 'L1' }, ts: 1000 }], 0); // retires at 1000 - (-100) = 1100
    await h.processElements([{ row: { user: 'a', id: 'R1' }, ts: 1000 }], 1); // retires at 1000 + 50 = 1050
    assert.equal(await count(), 2);
    await h.processWatermark(1049);
    assert.equal(await count(), 2, `${kind}: nothing retired before its horizon`);
    await h.processWatermark(1050);
    assert.equal(await count(), 1, `${kind}: the right row retired at R.ts + upper`);
    await h.processElements([{ row: { user: 'a', id: 'R2' }, ts: 1150 }], 1); // L1 (1000) meets R2: 1000 in [1050, 1200]? no
    await h.processElements([{ row: { user: 'a', id: 'R3' }, ts: 1080 }], 1); // 1000 in [980, 1130]: yes
    await h.processWatermark(1100);
    assert.equal(await count(), 2, `${kind}: L1 retired at L.ts - lower; R2, R3 kept`);
    assert.deepEqual(
      h.output().map((o) => `${o.row.l}-${o.row.r}@${o.ts}`),
      ['L1-R1@1000', 'L1-R3@1080'],
    );
    await h.close();
  }
});
