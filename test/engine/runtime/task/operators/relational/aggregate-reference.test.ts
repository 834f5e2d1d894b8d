/**
 * The aggregate operator against an independent reference: a plain loop that, record by record,
 * recomputes each key's results from all of that key's rows so far (no accumulators) and emits
 * +I / -U +U when they change. Compared per key (the emission order of one key is fixed by its
 * input order, whatever the parallelism) on randomized out-of-order input, at parallelism 1 and 4
 * and across snapshot/restore with rescaling 1 -> 4 -> 1, on every state backend. Includes
 * COUNT(DISTINCT) and FILTER (WHERE).
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import type { JobNodeOf } from '../../../../../../engine/graph/types.ts';
import type { Row } from '../../../../../../engine/contracts/operator.ts';
import {
  createAggregateOperator,
  AGGREGATE_TABLE,
} from '../../../../../../engine/runtime/task/operators/relational/index.ts';
import { parseKeyBy } from '../../../../../../engine/sql/index.ts';
import { BACKEND_KINDS, createHarnessBackends, OperatorTestHarness } from '../../../../../support/harness/index.ts';
import {
  drivePhased,
  foldChangelog,
  perKey,
  PHASES,
  randomSides,
  recordsOf,
  type Change,
  type DriveEvent,
} from './relational-fixtures.ts';
import { jobAround } from '../job-around.ts';

const AGGREGATES =
  'COUNT(*) AS n, SUM(v) AS total, MIN(v) AS lo, MAX(v) AS hi, AVG(v) AS mean, ' +
  'COUNT(DISTINCT region) AS regions, COUNT(DISTINCT v) AS vs, COUNT(*) FILTER (WHERE v > 50) AS big, ' +
  "SUM(v) FILTER (WHERE region = 'eu') AS eu_total";

function results(keyCols: string[], keyValues: unknown[], rows: Row[]): Row {
  const out: Row = {};
  keyCols.forEach((c, i) => {
    out[c] = keyValues[i];
  });
  const vs = rows.map((r) => r.v as number);
  out.n = vs.length;
  out.total = vs.reduce((a, b) => a + b, 0);
  out.lo = Math.min(...vs);
  out.hi = Math.max(...vs);
  // AVG of integers is an integer truncated toward zero, as in Flink (docs/sql-semantics.md).
  out.mean = Math.trunc((out.total as number) / vs.length) || 0;
  out.regions = new Set(rows.map((r) => r.region)).size;
  out.vs = new Set(vs).size;
  out.big = vs.filter((v) => v > 50).length;
  const eu = rows.filter((r) => r.region === 'eu').map((r) => r.v as number);
  out.eu_total = eu.length === 0 ? null : eu.reduce((a, b) => a + b, 0);
  return out;
}

/** Record by record: every key's results recomputed from scratch. */
function reference(events: DriveEvent[], keyCols: string[]): Change[] {
  const rowsByKey = new Map<string, Row[]>();
  const last = new Map<string, Row>();
  const out: Change[] = [];
  for (const { row, ts } of recordsOf(events, 0)) {
    const kv = keyCols.map((c) => row[c]);
    const k = JSON.stringify(kv);
    const rows = rowsByKey.get(k) ?? [];
    rows.push(row);
    rowsByKey.set(k, rows);
    const now = results(keyCols, kv, rows);
    const before = last.get(k);
    if (before === undefined) out.push({ kind: '+I', row: now, ts });
    else if (JSON.stringify(before) !== JSON.stringify(now)) {
      out.push({ kind: '-U', row: before, ts }, { kind: '+U', row: now, ts });
    }
    last.set(k, now);
  }
  return out;
}

const backends = await createHarnessBackends();
after(() => backends.dispose());

for (const keyBy of ['user', 'region, user']) {
  const keyCols = parseKeyBy(keyBy).columns;
  const node: JobNodeOf<'aggregate'> = { id: 'agg', type: 'aggregate', config: { keyBy, aggregates: AGGREGATES } };
  const events = randomSides(41, 2500, [{ keys: 13, step: 4, jitter: 150, delay: 60, tag: 'a' }]);
  const want = reference(events, keyCols);
  const groupKey = (r: Row) => JSON.stringify(keyCols.map((c) => r[c]));
  for (const kind of BACKEND_KINDS) {
    for (const ph of PHASES) {
      test(`aggregate by ${keyBy} vs reference: ${kind}, ${ph.name}`, async () => {
        assert.ok(want.filter((c) => c.kind === '-U').length > 1000, 'the input updates results many times');
        const got = await drivePhased(events, {
          create: () => createAggregateOperator(node, jobAround(node)),
          backend: backends.factory(kind, `agg-${kind}`),
          keyOf: [parseKeyBy(keyBy).keyOf],
          phases: ph.phases,
          table: AGGREGATE_TABLE,
        });
        assert.equal(got.snapshots, ph.phases.length - 1);
        assert.deepEqual(perKey(got.changes, groupKey), perKey(want, groupKey));
        assert.deepEqual(foldChangelog(got.changes), foldChangelog(want));
      });
    }
  }
}

test('aggregate: a record that leaves the results unchanged emits nothing', async () => {
  const node: JobNodeOf<'aggregate'> = {
    id: 'agg',
    type: 'aggregate',
    config: { keyBy: 'user', aggregates: 'MAX(v) AS hi' },
  };
  const h = await OperatorTestHarness.open(() => createAggregateOperator(node, jobAround(node)));
  await h.processElements([
    { row: { user: 'a', v: 5 }, ts: 1 },
    { row: { user: 'a', v: 3 }, ts: 2 },
    { row: { user: 'a', v: 9 }, ts: 3 },
  ]);
  assert.deepEqual(
    h.changelog().map((c) => `${c.kind} ${c.row.hi}`),
    ['+I 5', '-U 5', '+U 9'],
  );
  await h.close();
});

test('aggregate stateTtl: a key idle for stateTtl of event time is forgotten and starts again', async () => {
  const node: JobNodeOf<'aggregate'> = {
    id: 'agg',
    type: 'aggregate',
    config: { keyBy: 'user', aggregates: 'COUNT(*) AS n', stateTtl: 1000 },
  };
  for (const kind of BACKEND_KINDS) {
    const h = await OperatorTestHarness.open(() => createAggregateOperator(node, jobAround(node)), {
      backend: backends.factory(kind, `ttl-${kind}`),
    });
    await h.processElements([
      { row: { user: 'a' }, ts: 100 },
      { row: { user: 'b' }, ts: 900 },
      { row: { user: 'a' }, ts: 200 },
    ]);
    await h.processWatermark(1099); // a: last seen 200 -> kept until 1200
    await h.processWatermark(1500); // a expires (200 + 1000 <= 1500), b does not (900 + 1000 > 1500)
    let entries = 0;
    for await (const _ of h.backend.table(AGGREGATE_TABLE).scan()) entries++;
    assert.equal(entries, 1, `${kind}: only b is kept`);
    await h.processElements([
      { row: { user: 'a' }, ts: 1600 },
      { row: { user: 'b' }, ts: 1600 },
    ]);
    assert.deepEqual(
      h.changelog().map((c) => `${c.kind} ${c.row.user}=${c.row.n}`),
      ['+I a=1', '+I b=1', '-U a=1', '+U a=2', '+I a=1', '-U b=1', '+U b=2'],
      kind,
    );
    await h.close();
  }
});

test('aggregate stateTtl is exact: a key is fresh once the watermark reaches its time + stateTtl', async () => {
  const node: JobNodeOf<'aggregate'> = {
    id: 'agg',
    type: 'aggregate',
    config: { keyBy: 'user', aggregates: 'COUNT(*) AS n', stateTtl: 1000 },
  };
  for (const kind of BACKEND_KINDS) {
    const h = await OperatorTestHarness.open(() => createAggregateOperator(node, jobAround(node)), {
      backend: backends.factory(kind, `ttl-exact-${kind}`),
    });
    await h.processElements([
      { row: { user: 'c' }, ts: 0 },
      { row: { user: 'd' }, ts: 0 },
    ]);
    await h.processWatermark(999);
    await h.processElements([{ row: { user: 'd' }, ts: 999 }]); // d refreshed just in time: kept until 1999
    await h.processWatermark(1000); // c expires exactly now (0 + 1000 <= 1000)
    await h.processElements([
      { row: { user: 'c' }, ts: 1001 },
      { row: { user: 'd' }, ts: 1001 },
    ]);
    assert.deepEqual(
      h.changelog().map((c) => `${c.kind} ${c.row.user}=${c.row.n}`),
      ['+I c=1', '+I d=1', '-U d=1', '+U d=2', '+I c=1', '-U d=2', '+U d=3'],
      kind,
    );
    await h.close();
  }
});
