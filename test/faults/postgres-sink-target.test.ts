/**
 * Issue 23, "a sink whose path or table changed is refused while it has pending transactions in
 * the restored checkpoint (listing them)", for `sink.postgres`: a run is SIGKILLed after checkpoint
 * 2 is stored and before it is notified, so its transactions are PREPAREd in PostgreSQL and listed
 * as pending. Resuming with the sink pointed at another table is refused, naming the prepared
 * transactions, with both tables and the prepared transactions unchanged; resuming with the old
 * table then commits them there and the table equals the reference exactly.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startPgCluster, type PgCluster } from '../support/postgres-cluster.ts';
import { runWeir, startWeirWithFaults, tempDir, writeJob } from '../support/run-helpers.ts';
import {
  APPEND_ROWS_SQL,
  APPEND_TABLE_SQL,
  appendJob,
  appendReference,
  rowStrings,
} from '../engine/connectors/postgres/pg-sink-jobs.ts';

const COUNT = 4000;
const NAME = 'pg-target';

let pg: PgCluster;
before(async () => {
  pg = await startPgCluster();
});
after(async () => {
  await pg?.stop();
});

describe('faults: a PostgreSQL sink whose table changed with transactions pending (issue 23)', () => {
  let dir: string;
  let cleanup: () => void;
  const write = (table: string) => {
    const job = appendJob({ name: NAME, url: pg.url, table, count: COUNT, rate: 2000, interval: '150ms' });
    job.settings.restart = { attempts: 0 } as never;
    writeJob(dir, job, 'job.json');
  };
  const rows = async (t: string) => rowStrings(await pg.query(APPEND_ROWS_SQL(t)));
  const prepared = async () =>
    (await pg.query<{ gid: string }>(`SELECT gid FROM pg_prepared_xacts ORDER BY gid`)).map((r) => r.gid);

  before(async () => {
    ({ dir, cleanup } = tempDir('faults-pg-target'));
    await pg.query(APPEND_TABLE_SQL('target_old'));
    await pg.query(APPEND_TABLE_SQL('target_new'));
    write('target_old');
    const r = await startWeirWithFaults(['run', 'job.json', '--quiet'], dir, { killHostBeforeNotify: 2 }).result;
    assert.equal(r.signal, 'SIGKILL', `the host was killed at checkpoint 2: ${r.stderr}`);
    // Guard: the kill left prepared transactions that a wrong restore would strand or lose.
    assert.ok((await prepared()).length > 0, 'checkpoint 2 left prepared transactions');
  });
  after(() => cleanup?.());

  it('resuming into another table is refused, listing the prepared transactions; nothing changes', async () => {
    write('target_new');
    const before = { old: await rows('target_old'), fresh: await rows('target_new'), prepared: await prepared() };
    const r = await runWeir(['run', 'job.json', '--resume', '--quiet'], dir);
    assert.notEqual(r.code, 0, 'refused');
    assert.match(
      r.stderr,
      /sink 'pg' now writes to 'target_new', but the checkpoint lists \d+ pending transaction\(s\) for 'target_old'/,
    );
    for (const gid of before.prepared) assert.ok(r.stderr.includes(gid), `names ${gid}: ${r.stderr}`);
    assert.match(r.stderr, /Nothing was changed/);
    assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
    assert.deepEqual(await rows('target_old'), before.old, 'old table unchanged');
    assert.deepEqual(await rows('target_new'), before.fresh, 'new table unchanged');
    assert.deepEqual(await prepared(), before.prepared, 'prepared transactions unchanged');
  });

  it('resuming with the old table commits them there: exactly the reference', async () => {
    write('target_old');
    const r = await runWeir(['run', 'job.json', '--resume', '--quiet'], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(await rows('target_old'), appendReference(COUNT));
    assert.deepEqual(await prepared(), [], 'no prepared transaction left');
  });
});
