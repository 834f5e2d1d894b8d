/**
 * `source.postgres` cdc mode against a real server: the changelog's kinds, a restore that replays
 * from the middle of a transaction, the slot confirmed only when a checkpoint completes (and never
 * past it), and the refusals: a table without REPLICA IDENTITY FULL, a slot confirmed past the
 * restored position.
 */
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startPgCluster, type PgCluster } from '../../../support/postgres-cluster.ts';
import { PostgresCdcReader } from '../../../../engine/connectors/postgres/cdc-source.ts';
import type { CdcPosition } from '../../../../engine/connectors/postgres/cdc-position.ts';
import type { JobNodeOf } from '../../../../engine/graph/types.ts';
import type { SourceContext } from '../../../../engine/contracts/source.ts';
import { readRows } from './cdc-reads.ts';

let pg: PgCluster;
before(async () => {
  pg = await startPgCluster();
});
after(() => pg.stop());

const ctx: SourceContext = {
  subtask: 0,
  parallelism: 1,
  resolvePath: (p) => p,
  badRecord: () => undefined,
  jobName: 'unit',
};

function node(table: string, id = table): JobNodeOf<'source.postgres'> {
  return { id, type: 'source.postgres', config: { url: pg.url, table, mode: 'cdc' } };
}

async function table(name: string, rows: number): Promise<void> {
  await pg.query(`CREATE TABLE ${name} (id int PRIMARY KEY, v int)`);
  await pg.query(`ALTER TABLE ${name} REPLICA IDENTITY FULL`);
  await pg.query(`INSERT INTO ${name} SELECT i, i * 10 FROM generate_series(1, ${rows}) AS i`);
}

async function confirmed(slot: string): Promise<string> {
  const [r] = await pg.query<{ lsn: string }>(
    'SELECT confirmed_flush_lsn::text AS lsn FROM pg_replication_slots WHERE slot_name = $1',
    [slot],
  );
  return r.lsn;
}

test('cdc: snapshot rows +I, then inserts +I, updates -U/+U with the old row, deletes -D', async () => {
  await table('kinds', 3);
  const r = new PostgresCdcReader(node('kinds'), ctx, []);
  try {
    assert.deepEqual(
      await readRows(r, 3),
      [1, 2, 3].map((id) => ({ kind: '+I', row: { id, v: id * 10 } })),
    );
    await pg.query('INSERT INTO kinds VALUES (4, 40)');
    await pg.query('UPDATE kinds SET v = 21 WHERE id = 2');
    await pg.query('DELETE FROM kinds WHERE id = 1');
    assert.deepEqual(await readRows(r, 4), [
      { kind: '+I', row: { id: 4, v: 40 } },
      { kind: '-U', row: { id: 2, v: 20 } },
      { kind: '+U', row: { id: 2, v: 21 } },
      { kind: '-D', row: { id: 1, v: 10 } },
    ]);
  } finally {
    await r.close();
  }
});

test('cdc: the slot is confirmed only when a checkpoint completes, to that checkpoint, and a restore mid-transaction replays the rest exactly', async () => {
  await table('replay', 2);
  const slot = 'weir_unit_replay';
  const a = new PostgresCdcReader(node('replay'), ctx, []);
  await readRows(a, 2);
  const start = await confirmed(slot);
  // One transaction of five changes, read two rows at a time: the position lands inside it.
  await pg.query(
    'BEGIN; INSERT INTO replay VALUES (3, 30), (4, 40), (5, 50); DELETE FROM replay WHERE id = 1; INSERT INTO replay VALUES (6, 60); COMMIT;',
  );
  const first = await readRows(a, 2, 2);
  const mid = structuredClone(a.position()) as CdcPosition;
  assert.equal(mid.index, 2, 'two changes of the transaction emitted');
  assert.equal(mid.safe, start, 'no transaction emitted whole yet');
  await a.notifyCheckpointComplete(1, mid);
  await pg.query('INSERT INTO replay VALUES (7, 70)');
  const rest = await readRows(a, 4);
  const whole = structuredClone(a.position()) as CdcPosition;
  assert.notEqual(whole.safe, start);
  // Reading on never confirms anything: only the completed checkpoint's position does.
  assert.equal(await confirmed(slot), start);
  await a.notifyCheckpointComplete(2, whole);
  let seen = '';
  const deadline = Date.now() + 10_000;
  while ((seen = await confirmed(slot)) !== whole.safe && Date.now() < deadline)
    await new Promise((res) => setTimeout(res, 20));
  assert.equal(seen, whole.safe, 'confirmed to the completed checkpoint');
  await a.close();
  assert.deepEqual(
    [...first, ...rest].map((x) => `${x.kind}${(x.row as { id: number }).id}`),
    ['+I3', '+I4', '+I5', '-D1', '+I6', '+I7'],
  );

  // A restore from the mid-transaction position now finds the slot confirmed past it: refused.
  const old = new PostgresCdcReader(node('replay'), ctx, [mid]);
  await assert.rejects(old.read(10), /replication slot weir_unit_replay was confirmed up to .* past this checkpoint's/);
  await old.close();

  // Restored from the newest position: nothing is emitted twice, the next change comes next.
  const b = new PostgresCdcReader(node('replay'), ctx, [whole]);
  await pg.query('UPDATE replay SET v = 71 WHERE id = 7');
  assert.deepEqual(await readRows(b, 2), [
    { kind: '-U', row: { id: 7, v: 70 } },
    { kind: '+U', row: { id: 7, v: 71 } },
  ]);
  await b.close();
});

test('cdc: a restore inside a transaction skips exactly what the position covers', async () => {
  await table('midtx', 1);
  const a = new PostgresCdcReader(node('midtx'), ctx, []);
  await readRows(a, 1);
  await pg.query('BEGIN; INSERT INTO midtx VALUES (2, 20), (3, 30), (4, 40); COMMIT;');
  await readRows(a, 2, 2);
  const mid = structuredClone(a.position());
  await a.close();
  const b = new PostgresCdcReader(node('midtx'), ctx, [mid]);
  assert.deepEqual(await readRows(b, 1), [{ kind: '+I', row: { id: 4, v: 40 } }]);
  await pg.query('INSERT INTO midtx VALUES (5, 50)');
  assert.deepEqual(
    await readRows(b, 1),
    [{ kind: '+I', row: { id: 5, v: 50 } }],
    'and nothing else before the next change',
  );
  await b.close();
});

test('cdc: a table without REPLICA IDENTITY FULL is refused with the statement that fixes it', async () => {
  await pg.query('CREATE TABLE plain (id int PRIMARY KEY, v int)');
  const r = new PostgresCdcReader(node('plain'), ctx, []);
  await assert.rejects(
    r.read(10),
    /plain\.config\.table: table public\.plain has REPLICA IDENTITY DEFAULT; .* run ALTER TABLE "public"\."plain" REPLICA IDENTITY FULL/,
  );
  await r.close();
});
