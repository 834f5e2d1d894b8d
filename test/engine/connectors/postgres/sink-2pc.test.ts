/**
 * The two-phase commit of `sink.postgres`, step by step on a real PostgreSQL: rows are invisible
 * until the barrier prepares them and the completed checkpoint commits them; recovery commits what
 * the restored state lists, rolls back every other prepared transaction of the job and node (and
 * no one else's), and does the same again when repeated. Upsert collapses a checkpoint's changes
 * per key and applies deletes.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startPgCluster, type PgCluster } from '../../../support/postgres-cluster.ts';
import { PostgresSinkOperator, type PostgresSinkState } from '../../../../engine/connectors/postgres/sink-operator.ts';
import { postgresSinkRecovery } from '../../../../engine/connectors/postgres/sink-recovery.ts';
import { gidPrefix } from '../../../../engine/connectors/postgres/sink-txn.ts';
import type { JobNode, PostgresSinkConfig } from '../../../../engine/graph/types.ts';
import type { OperatorContext, RecordBatch, RowKind } from '../../../../engine/contracts/operator.ts';

let cluster: PgCluster;
before(async () => {
  cluster = await startPgCluster();
  await cluster.query('CREATE TABLE app (seq bigint, key text)');
  await cluster.query('CREATE TABLE ups (key text PRIMARY KEY, n bigint)');
});
after(async () => {
  await cluster?.stop();
});

const ctx = (subtask: number): OperatorContext => ({
  nodeId: 'pg',
  subtask,
  parallelism: 2,
  maxParallelism: 128,
  keyGroupRange: { start: 0, end: 127 },
  state: null,
  metrics: { lateRecords() {}, badRecords() {} },
  resolvePath: (p) => p,
});

function operator(job: string, cfg: Omit<PostgresSinkConfig, 'url'>, columns: string[]) {
  const services = { lineage: 'lin1', attempt: 1, checkpointing: true, sendPreview() {}, log() {} };
  return new PostgresSinkOperator(
    { url: cluster.url, ...cfg },
    { jobName: job, nodeId: 'pg', at: 'nodes[1].config', columns },
    services,
  );
}

const out = { emit() {}, emitWatermark() {} };
const batch = (rows: Record<string, unknown>[], kinds?: RowKind[]): RecordBatch => ({
  rows,
  ts: rows.map(() => NaN),
  ...(kinds ? { kinds } : {}),
});
const node: JobNode = {
  id: 'pg',
  type: 'sink.postgres',
  get config() {
    return { url: cluster.url, table: 'app', mode: 'append' as const };
  },
};
const recover = (job: string, states: unknown[]) =>
  postgresSinkRecovery.recover({ node, baseDir: '/', jobName: job, states });

async function prepared(): Promise<string[]> {
  return (await cluster.query<{ gid: string }>('SELECT gid FROM pg_prepared_xacts ORDER BY gid')).map((r) => r.gid);
}
async function seqs(): Promise<number[]> {
  return (await cluster.query<{ seq: string }>('SELECT seq FROM app ORDER BY seq')).map((r) => Number(r.seq));
}

describe('sink.postgres two-phase commit', () => {
  test('rows are invisible until prepared at the barrier and committed when the checkpoint completes', async () => {
    await cluster.query('TRUNCATE app');
    const op = operator('j1', { table: 'app', mode: 'append' }, ['seq', 'key']);
    await op.open(ctx(0), out);
    await op.processBatch(
      batch([
        { seq: 1, key: 'a' },
        { seq: 2, key: 'b' },
      ]),
    );
    assert.deepEqual(await seqs(), [], 'nothing visible before the barrier');
    const snap = await op.snapshotState(5);
    const state = snap.operator as PostgresSinkState;
    assert.equal(state.pending.length, 1);
    assert.equal(state.pending[0].checkpointId, 5);
    assert.match(state.pending[0].gid, /^weir:j1:pg:lin1:0:5:[0-9a-f]{8}$/);
    assert.deepEqual(
      await prepared(),
      [state.pending[0].gid],
      'prepared under a gid naming job, node, subtask, checkpoint',
    );
    assert.deepEqual(await seqs(), [], 'a prepared transaction is not visible');
    assert.deepEqual(op.pendingOutput(), { records: 2, files: 1 });
    await op.processBatch(batch([{ seq: 3, key: 'c' }]));
    await op.notifyCheckpointComplete(5);
    assert.deepEqual(await seqs(), [1, 2], 'committed on completion; the open transaction stays open');
    assert.deepEqual(await prepared(), []);
    const six = (await op.snapshotState(6)).operator as PostgresSinkState;
    assert.equal(six.pending.length, 1);
    await op.close();
    // The process is gone: checkpoint 6 never completed, so its transaction is an orphan.
    await recover('j1', [six]);
    assert.deepEqual(await seqs(), [1, 2, 3], 'a restore of 6 commits what 6 lists');
    await recover('j1', []);
    assert.deepEqual(await prepared(), []);
  });

  test('recovery commits the listed, rolls back the rest of this job and node only, and repeats harmlessly', async () => {
    await cluster.query('TRUNCATE app');
    const a = operator('j2', { table: 'app', mode: 'append' }, ['seq', 'key']);
    const b = operator('j2', { table: 'app', mode: 'append' }, ['seq', 'key']);
    const other = operator('j2-other', { table: 'app', mode: 'append' }, ['seq', 'key']);
    await a.open(ctx(0), out);
    await b.open(ctx(1), out);
    await other.open(ctx(0), out);
    await a.processBatch(batch([{ seq: 10, key: 'a' }]));
    await b.processBatch(batch([{ seq: 11, key: 'b' }]));
    await other.processBatch(batch([{ seq: 99, key: 'x' }]));
    const listed = (await a.snapshotState(1)).operator as PostgresSinkState;
    await b.snapshotState(1);
    await b.processBatch(batch([{ seq: 12, key: 'b' }]));
    await b.snapshotState(2); // prepared, but checkpoint 2 never completes
    const foreign = (await other.snapshotState(1)).operator as PostgresSinkState;
    for (const op of [a, b, other]) await op.close();
    assert.equal((await prepared()).length, 4);
    // Restore checkpoint 1 as if only subtask 0 had listed pending (subtask 1's state is lost on purpose).
    await recover('j2', [listed]);
    assert.deepEqual(await seqs(), [10], 'listed: committed; orphans of j2 (11, 12): rolled back');
    assert.deepEqual(await prepared(), [foreign.pending[0].gid], "another job's transaction is not touched");
    await recover('j2', [listed]);
    assert.deepEqual(await seqs(), [10], 'recovery repeated: the same table');
    await recover('j2-other', []);
    assert.deepEqual(await prepared(), []);
    assert.deepEqual(await seqs(), [10], 'a fresh start rolls back, never commits');
  });

  test('upsert applies a checkpoint collapsed per key: last change wins, -U then +U updates, -D deletes', async () => {
    await cluster.query(`INSERT INTO ups VALUES ('gone', 1)`);
    const op = operator('j3', { table: 'ups', mode: 'upsert', key: 'key' }, ['key', 'n']);
    await op.open(ctx(0), out);
    await op.processBatch(
      batch(
        [
          { key: 'a', n: 1 },
          { key: 'a', n: 1 },
          { key: 'a', n: 2 },
          { key: 'b', n: 1 },
          { key: 'gone', n: 1 },
        ],
        ['+I', '-U', '+U', '+I', '-D'],
      ),
    );
    const s = (await op.snapshotState(1)).operator as PostgresSinkState;
    assert.equal(s.pending[0].records, 3, 'three keys, one change each');
    assert.deepEqual(op.pendingOutput().records, 3);
    await op.notifyCheckpointComplete(1);
    const rows = await cluster.query<{ key: string; n: string }>('SELECT key, n FROM ups ORDER BY key');
    assert.deepEqual(
      rows.map((r) => `${r.key}=${r.n}`),
      ['a=2', 'b=1'],
    );
    await op.close();
  });

  test('upsert: a -U whose +U went elsewhere (a filter dropped it, or the key changed) deletes the old row', async () => {
    await cluster.query(`INSERT INTO ups VALUES ('kept', 1), ('filtered', 1), ('moved', 1)`);
    const op = operator('j3b', { table: 'ups', mode: 'upsert', key: 'key' }, ['key', 'n']);
    await op.open(ctx(0), out);
    await op.processBatch(
      batch(
        [
          { key: 'kept', n: 1 },
          { key: 'kept', n: 5 },
          { key: 'filtered', n: 1 },
          { key: 'moved', n: 1 },
          { key: 'moved-to', n: 1 },
        ],
        ['-U', '+U', '-U', '-U', '+U'],
      ),
    );
    await op.snapshotState(1);
    await op.notifyCheckpointComplete(1);
    const rows = await cluster.query<{ key: string; n: string }>(
      `SELECT key, n FROM ups WHERE key IN ('kept', 'filtered', 'moved', 'moved-to') ORDER BY key`,
    );
    assert.deepEqual(
      rows.map((r) => `${r.key}=${r.n}`),
      ['kept=5', 'moved-to=1'],
    );
    await cluster.query(`DELETE FROM ups WHERE key IN ('kept', 'moved-to')`);
    await op.close();
  });

  test('a prepared upsert transaction keeps its locks: the next checkpoint refuses to write behind it', async () => {
    const op = operator('j4', { table: 'ups', mode: 'upsert', key: 'key' }, ['key', 'n']);
    await op.open(ctx(0), out);
    await op.processBatch(batch([{ key: 'a', n: 7 }]));
    await op.snapshotState(1);
    await op.processBatch(batch([{ key: 'a', n: 8 }]));
    await assert.rejects(op.snapshotState(2), /nodes\[1\]\.config: checkpoint 1 never completed/);
    await op.close();
    await recover('j4', []);
    const rows = await cluster.query<{ n: string }>(`SELECT n FROM ups WHERE key = 'a'`);
    assert.deepEqual(
      rows.map((r) => r.n),
      ['2'],
      'both rolled back',
    );
  });

  test('a job name that needs escaping or is long still gives a short, unambiguous gid prefix', () => {
    assert.equal(gidPrefix('a:b', 'n'), 'weir:a%3Ab:n:');
    assert.notEqual(gidPrefix('a', 'b:c'), gidPrefix('a:b', 'c'));
    const long = gidPrefix('x'.repeat(500), 'y'.repeat(500));
    assert.ok(long.length < 130, long);
    assert.notEqual(long, gidPrefix('x'.repeat(499) + 'z', 'y'.repeat(500)));
  });
});
