/**
 * `source.postgres` cdc mode against a real server when the table's schema changes under a
 * running job: output rows keep exactly the declared `columns` (also after a restore, which reads
 * the changed table), the change is reported as a notice, and a declared column the table lacks
 * is refused at open.
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

const notices: string[] = [];
const ctx: SourceContext = {
  subtask: 0,
  parallelism: 1,
  resolvePath: (p) => p,
  badRecord: () => undefined,
  jobName: 'unit',
  notice: (m) => notices.push(m),
};

function node(table: string, columns: Record<string, string>): JobNodeOf<'source.postgres'> {
  return { id: table, type: 'source.postgres', config: { url: pg.url, table, mode: 'cdc', columns } };
}

test('cdc: after ALTER TABLE ... ADD COLUMN, rows keep the declared columns and the change is reported', async () => {
  await pg.query('CREATE TABLE grows (id int PRIMARY KEY, v int, note text)');
  await pg.query('ALTER TABLE grows REPLICA IDENTITY FULL');
  await pg.query("INSERT INTO grows VALUES (1, 10, 'a')");
  // `note` is in the table but not in `columns`: it never reaches a row.
  const cols = { id: 'INT', v: 'INT' };
  const a = new PostgresCdcReader(node('grows', cols), ctx, []);
  assert.deepEqual(await readRows(a, 1), [{ kind: '+I', row: { id: 1, v: 10 } }]);
  await pg.query("INSERT INTO grows VALUES (2, 20, 'b')");
  assert.deepEqual(await readRows(a, 1), [{ kind: '+I', row: { id: 2, v: 20 } }]);
  await pg.query('ALTER TABLE grows ADD COLUMN extra int DEFAULT 7');
  await pg.query("INSERT INTO grows VALUES (3, 30, 'c', 8)");
  await pg.query('UPDATE grows SET v = 21 WHERE id = 2');
  assert.deepEqual(await readRows(a, 3), [
    { kind: '+I', row: { id: 3, v: 30 } },
    { kind: '-U', row: { id: 2, v: 20 } },
    { kind: '+U', row: { id: 2, v: 21 } },
  ]);
  const change = notices.filter((m) => m.includes('changed'));
  assert.deepEqual(change, [
    "source.postgres 'grows': the schema of public.grows changed (column(s) added: extra); output rows keep their columns (id, v)",
  ]);
  const pos = structuredClone(a.position()) as CdcPosition;
  await a.notifyCheckpointComplete(1, pos);
  await a.close();

  // A restore reads the table as it is now (with `extra`): the rows still follow `columns`.
  const b = new PostgresCdcReader(node('grows', cols), ctx, [pos]);
  await pg.query("INSERT INTO grows VALUES (4, 40, 'd', 9)");
  assert.deepEqual(await readRows(b, 1), [{ kind: '+I', row: { id: 4, v: 40 } }]);
  await b.close();
});

test('cdc: a declared column the table does not have is refused at open, naming it', async () => {
  await pg.query('CREATE TABLE narrow (id int PRIMARY KEY, v int)');
  await pg.query('ALTER TABLE narrow REPLICA IDENTITY FULL');
  const r = new PostgresCdcReader(node('narrow', { id: 'INT', w: 'INT' }), ctx, []);
  await assert.rejects(
    r.read(10),
    /narrow\.config\.columns: column\(s\) w not in table public\.narrow \(it has id, v\)/,
  );
  await r.close();
});
