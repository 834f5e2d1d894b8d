/**
 * `source.postgres` snapshot mode: key order, the last key as the offset (a reader restored from a
 * position continues with the next key; test/chaos/chaos-postgres-snapshot.test.ts kills a run),
 * and clear errors for a table it cannot read.
 */
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startPgCluster, type PgCluster } from '../../../support/postgres-cluster.ts';
import { PostgresSnapshotReader } from '../../../../engine/connectors/postgres/snapshot-source.ts';
import type { PostgresSourceConfig } from '../../../../engine/graph/types.ts';
import type { SourceContext } from '../../../../engine/contracts/source.ts';

let pg: PgCluster;
before(async () => {
  pg = await startPgCluster();
  await pg.query(
    'CREATE TABLE orders (region text, id int, amount numeric(10,2), at timestamp, PRIMARY KEY (region, id))',
  );
  // Inserted out of key order: the reader must sort.
  await pg.query(
    `INSERT INTO orders SELECT (ARRAY['eu','us','ap'])[1 + i % 3], i, i * 1.25, timestamp '2024-01-01' + i * interval '1 second'
       FROM generate_series(2500, 1, -1) AS i`,
  );
  await pg.query('CREATE TABLE nokey (a int)');
});
after(() => pg.stop());

const ctx = (badRecords: string[] = []): SourceContext => ({
  subtask: 0,
  parallelism: 1,
  resolvePath: (p) => p,
  badRecord: (where, message) => badRecords.push(`${where}: ${message}`),
});

function cfg(extra: Partial<PostgresSourceConfig> = {}): PostgresSourceConfig {
  return { url: pg.url, table: 'orders', mode: 'snapshot', ...extra };
}

async function readAll(r: PostgresSnapshotReader, max: number, limit = Infinity) {
  const rows: Array<Record<string, unknown>> = [];
  const ts: number[] = [];
  for (let calls = 0; calls < limit; calls++) {
    const b = await r.read(max);
    rows.push(...b.rows);
    ts.push(...b.ts);
    if (b.end) return { rows, ts, end: true };
  }
  return { rows, ts, end: false };
}

test('snapshot: every row once, in primary-key order, with PostgreSQL values as Weir values', async () => {
  const r = new PostgresSnapshotReader(cfg({ eventTime: { field: 'at' } }), ctx(), 'nodes[0].config', []);
  const { rows, ts } = await readAll(r, 300);
  await r.close();
  assert.equal(rows.length, 2500);
  const keys = rows.map((x) => `${x.region}|${String(x.id).padStart(5, '0')}`);
  assert.deepEqual(keys, [...keys].sort(), 'rows in (region, id) order');
  const one = rows.find((x) => x.id === 7)!;
  assert.deepEqual(one, { region: 'us', id: 7, amount: 8.75, at: '2024-01-01T00:00:07.000Z' });
  assert.equal(ts[rows.indexOf(one)], Date.UTC(2024, 0, 1, 0, 0, 7), 'event time from the timestamp column');
});

test('snapshot: a reader restored from a position continues with the next key', async () => {
  const first = new PostgresSnapshotReader(cfg(), ctx(), 'nodes[0].config', []);
  const part = await readAll(first, 400, 3);
  const position = structuredClone(first.position());
  await first.close();
  assert.equal(part.rows.length, 1200);
  assert.equal(part.end, false);
  const second = new PostgresSnapshotReader(cfg(), ctx(), 'nodes[0].config', [undefined, position]);
  const rest = await readAll(second, 1000);
  await second.close();
  const all = [...part.rows, ...rest.rows].map((x) => `${x.region}|${x.id}`);
  assert.equal(all.length, 2500);
  assert.equal(new Set(all).size, 2500, 'no row twice');
  const done = new PostgresSnapshotReader(cfg(), ctx(), 'nodes[0].config', [second.position()]);
  assert.deepEqual(await done.read(10), { rows: [], ts: [], end: true }, 'a finished position reads nothing');
  await done.close();
});

test('snapshot: subtasks other than 0 end at once (one ordered split)', async () => {
  const r = new PostgresSnapshotReader(cfg(), { ...ctx(), subtask: 1, parallelism: 2 }, 'nodes[0].config', []);
  assert.deepEqual(await r.read(10), { rows: [], ts: [], end: true });
  await r.close();
});

test('snapshot: a table without a primary key, or missing, is a clear error naming the field', async () => {
  const r = new PostgresSnapshotReader(cfg({ table: 'nokey' }), ctx(), 'nodes[0].config', []);
  await assert.rejects(r.read(10), /^PgConfigError: nodes\[0\]\.config\.table: table public\.nokey has no primary key/);
  await r.close();
  const m = new PostgresSnapshotReader(cfg({ table: 'nope' }), ctx(), 'nodes[0].config', []);
  await assert.rejects(m.read(10), /nodes\[0\]\.config\.table: table public\.nope does not exist/);
  await m.close();
});

test('snapshot: rows carry exactly the declared columns, in their order; an undeclared one never appears', async () => {
  const r = new PostgresSnapshotReader(
    cfg({ columns: { amount: 'DECIMAL(10, 2)', id: 'INT' }, eventTime: { field: 'at' } }),
    ctx(),
    'nodes[0].config',
    [],
  );
  const { rows, ts } = await readAll(r, 1000);
  await r.close();
  assert.equal(rows.length, 2500);
  const one = rows.find((x) => x.id === 7)!;
  assert.deepEqual(Object.keys(one), ['amount', 'id'], 'declared columns only, declared order');
  assert.deepEqual(one, { amount: 8.75, id: 7 });
  assert.equal(ts[rows.indexOf(one)], Date.UTC(2024, 0, 1, 0, 0, 7), 'event time read from the table row');
});

test('snapshot: a declared column the table lacks is an error naming columns and listing the table', async () => {
  const r = new PostgresSnapshotReader(
    cfg({ columns: { amount: 'DECIMAL', nope: 'INT' } }),
    ctx(),
    'nodes[0].config',
    [],
  );
  await assert.rejects(
    r.read(10),
    /nodes\[0\]\.config\.columns: column\(s\) nope not in table public\.orders \(it has region, id, amount, at\)/,
  );
  await r.close();
});
