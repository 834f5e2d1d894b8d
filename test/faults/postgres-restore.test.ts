/**
 * Issue 23 item 4, "PostgreSQL append is exact on any restore", and the same for upsert: a job runs
 * to the end into a real PostgreSQL with several retained checkpoints; then `weir run --from` each
 * retained checkpoint, newest to oldest, must leave the table equal to its reference (the rows
 * committed after the restored checkpoint are deleted or put back through the ledger, then the replay
 * writes them again). Restores that cannot be proven exact are refused with the table and the
 * ledger unchanged: an older checkpoint whose rows an earlier restore undid, and (upsert) a key
 * someone else changed after the restored checkpoint.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startPgCluster, type PgCluster } from '../support/postgres-cluster.ts';
import { runWeir, tempDir, writeJob } from '../support/run-helpers.ts';
import { completedCheckpoints, copyDir } from './fault-job.ts';
import {
  APPEND_ROWS_SQL,
  APPEND_TABLE_SQL,
  UPSERT_ROWS_SQL,
  UPSERT_TABLE_SQL,
  appendJob,
  appendReference,
  rowStrings,
  upsertJob,
  upsertReference,
} from '../engine/connectors/postgres/pg-sink-jobs.ts';

const COUNT = 3000;

let pg: PgCluster;
before(async () => {
  pg = await startPgCluster();
});
after(async () => {
  await pg?.stop();
});

const modes = [
  {
    mode: 'append',
    table: 'pr_append',
    job: appendJob,
    create: APPEND_TABLE_SQL,
    rows: APPEND_ROWS_SQL,
    reference: appendReference(COUNT),
  },
  {
    mode: 'upsert',
    table: 'pr_upsert',
    job: upsertJob,
    create: UPSERT_TABLE_SQL,
    rows: UPSERT_ROWS_SQL,
    reference: upsertReference(COUNT),
  },
] as const;

for (const backend of ['fs', 'rocksdb'] as const)
  for (const m of modes) {
    describe(`faults: PostgreSQL ${m.mode} restores (${backend})`, () => {
      let dir: string;
      let cleanup: () => void;
      let kept: number[];
      const name = `pr-${m.mode}-${backend}`;
      const tableName = `${m.table}_${backend}`;

      /** The job paced (a run of a few seconds, a checkpoint every 150 ms) or as fast as possible. */
      const write = (rate: number | undefined) => {
        const job = m.job({ name, url: pg.url, table: tableName, count: COUNT, rate, interval: '150ms' });
        job.settings.checkpointing.retained = 5;
        job.settings.stateBackend = backend;
        writeJob(dir, job, 'job.json');
      };
      const table = async () => rowStrings(await pg.query(m.rows(tableName)));
      const ledger = async () =>
        rowStrings(
          await pg.query(`SELECT xid::text, checkpoint, rows, undone_before FROM weir_sink_ledger WHERE target = $1`, [
            `public.${tableName}`,
          ]),
        );
      const assertReference = async (context: string) => {
        const got = await table();
        const extra = got.length - m.reference.length;
        assert.deepEqual(got, m.reference, `${context}: ${got.length} rows for ${m.reference.length} (${extra} extra)`);
      };

      before(async () => {
        ({ dir, cleanup } = tempDir(`faults-pg-${m.mode}`));
        await pg.query(m.create(tableName));
        write(1500);
        const r = await runWeir(['run', 'job.json', '--quiet'], dir);
        assert.equal(r.code, 0, r.stderr);
        await assertReference('the first run');
        // The retained checkpoints, set aside: later runs' retention would discard them.
        kept = completedCheckpoints(join(dir, 'checkpoints', name));
        assert.ok(kept.length >= 4, `at least four checkpoints retained: ${kept}`);
        copyDir(join(dir, 'checkpoints', name), join(dir, 'kept'));
        write(undefined);
      });
      after(() => cleanup?.());

      it('--from each retained checkpoint, newest to oldest, gives exactly the reference', async () => {
        const [later] = await pg.query<{ n: string }>(
          `SELECT count(*) AS n FROM weir_sink_ledger WHERE target = $1 AND checkpoint > $2`,
          [`public.${tableName}`, kept[0]],
        );
        // Guard: the restores below have transactions committed after them to undo.
        assert.ok(Number(later.n) >= 2, `transactions after checkpoint ${kept[0]}: ${later.n}`);
        for (const k of [...kept].reverse()) {
          const r = await runWeir(['run', 'job.json', '--from', join('kept', `chk-${k}`)], dir);
          assert.equal(r.code, 0, r.stderr);
          // The newest checkpoints may have nothing after them (the input had ended); the oldest has.
          if (k === kept[0])
            assert.match(r.stderr, m.mode === 'append' ? /deleted the \d+ row\(s\)/ : /put back the row at checkpoint/);
          await assertReference(`--from chk-${k}`);
        }
      });

      it('--from a checkpoint whose rows an earlier restore undid is refused, nothing changed', async () => {
        // The loop above ended restoring the oldest checkpoint, which undid the rows of the others.
        const before = { table: await table(), ledger: await ledger() };
        const r = await runWeir(['run', 'job.json', '--from', join('kept', `chk-${kept[kept.length - 1]}`)], dir);
        assert.notEqual(r.code, 0);
        assert.match(
          r.stderr,
          /cannot restore checkpoint \d+ exactly: sink 'pg': .*were deleted when a later run restored an older checkpoint.*Nothing was changed/,
        );
        assert.deepEqual(await table(), before.table, 'table unchanged');
        assert.deepEqual(await ledger(), before.ledger, 'ledger unchanged');
      });

      it('--from an older checkpoint after a row written later was changed by someone else is refused', async () => {
        // Back to the reference from the oldest checkpoint, then someone edits a row the run's last
        // transaction wrote. Paced slower than the first run: only the tail after the oldest
        // checkpoint is replayed, and it must span several checkpoints even on a loaded machine
        // (at 1,500/s a CI run once took just two, leaving none between to restore).
        const earlier = completedCheckpoints(join(dir, 'checkpoints', name));
        write(300);
        let r = await runWeir(['run', 'job.json', '--from', join('kept', `chk-${kept[0]}`)], dir);
        write(undefined);
        assert.equal(r.code, 0, r.stderr);
        await assertReference(`--from chk-${kept[0]} again`);
        const [latest] = await pg.query<{ xmin: string; checkpoint: string }>(
          `SELECT xid(xid)::text AS xmin, checkpoint::text FROM weir_sink_ledger
          WHERE target = $1 AND undone_before IS NULL ORDER BY xid DESC LIMIT 1`,
          [`public.${tableName}`],
        );
        const edited = await pg.query(
          `UPDATE ${tableName} SET ${m.mode === 'append' ? 'value' : 'n'} = -1 WHERE ctid IN
           (SELECT ctid FROM ${tableName} WHERE xmin = $1::xid LIMIT 1) RETURNING 1`,
          [latest.xmin],
        );
        assert.equal(edited.length, 1, 'a row of the last transaction was edited');
        const before = { table: await table(), ledger: await ledger() };
        const newest = completedCheckpoints(join(dir, 'checkpoints', name));
        const oldest = newest.find((c) => c > Math.max(...earlier) && c < Number(latest.checkpoint));
        assert.ok(oldest !== undefined, `a checkpoint of the last run before ${latest.checkpoint}: ${newest}`);
        r = await runWeir(['run', 'job.json', '--from', join('checkpoints', name, `chk-${oldest}`)], dir);
        assert.notEqual(r.code, 0);
        assert.match(
          r.stderr,
          m.mode === 'append'
            ? /cannot restore checkpoint \d+ exactly: .*appended \d+ row\(s\) and \d+ carry its id now.*Nothing was changed/
            : /cannot restore checkpoint \d+ exactly: .*changed since by someone else.*Nothing was changed/,
        );
        assert.deepEqual(await table(), before.table, 'table unchanged');
        assert.deepEqual(await ledger(), before.ledger, 'ledger unchanged');
      });
    });
  }
