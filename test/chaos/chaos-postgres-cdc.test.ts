/**
 * Chaos with a PostgreSQL CDC source: a seeded writer inserts, updates and deletes rows in small
 * transactions while the job runs; the whole `weir run` is SIGKILLed three times (the first kills
 * usually land in the initial snapshot) and then its task process twice; at the end the changelog
 * committed by the file sink, materialized strictly (a doubled or lost change is a violation),
 * equals the table, and the slot was never confirmed past a completed checkpoint.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startPgCluster, type PgCluster } from '../support/postgres-cluster.ts';
import { canonical, childPids, rng, sleep, startWeir, tempDir, waitFor, writeJob } from '../support/run-helpers.ts';
import { latestCheckpointId } from './chaos-runner.ts';
import { PgChangeDriver, CHAOS_START } from './pg-change-driver.ts';
import { committedChangelog, materialize } from './changelog-materialize.ts';
import { parseLsn } from '../../engine/connectors/postgres/lsn.ts';

const INITIAL = 30_000;
const SLOT = 'weir_chaos_cdc_src';

/** The `safe` LSN of the newest completed checkpoint on disk (what the slot may be confirmed to). */
function latestSafeLsn(root: string): bigint | null {
  const id = latestCheckpointId(root);
  if (id === 0) return null;
  for (const job of readdirSync(root)) {
    const meta = join(root, job, `chk-${id}`, '_metadata');
    if (!existsSync(meta)) continue;
    const m = JSON.parse(readFileSync(meta, 'utf8')) as {
      states: Array<{ operatorId: string; operator: { state: { position?: { safe: string } } } }>;
    };
    const safe = m.states.find((s) => s.operatorId === 'src')?.operator.state.position?.safe;
    return safe ? parseLsn(safe) : null;
  }
  return null;
}

async function slotConfirmed(pg: PgCluster): Promise<bigint | null> {
  const [r] = await pg.query<{ lsn: string | null }>(
    'SELECT confirmed_flush_lsn::text AS lsn FROM pg_replication_slots WHERE slot_name = $1',
    [SLOT],
  );
  return r?.lsn ? parseLsn(r.lsn) : null;
}

async function referenceTable(pg: PgCluster): Promise<Map<unknown, string>> {
  const rows = await pg.query<{ id: number; k: string; v: number; at: string }>(
    `SELECT id, k, v, (extract(epoch FROM at) * 1000)::bigint::text AS at FROM events`,
  );
  return new Map(rows.map((r) => [r.id, canonical({ id: r.id, k: r.k, v: r.v, at: Number(r.at) })]));
}

test(
  'postgres cdc: changes while the job runs and across SIGKILLs reach the sink exactly once',
  { timeout: 420_000 },
  async () => {
    const pg = await startPgCluster();
    const { dir, cleanup } = tempDir('chaos-pg-cdc');
    const random = rng(15);
    let driver: PgChangeDriver | null = null;
    try {
      await pg.query(
        'CREATE TABLE events (id int PRIMARY KEY, k text NOT NULL, v int NOT NULL, at timestamptz NOT NULL)',
      );
      await pg.query('ALTER TABLE events REPLICA IDENTITY FULL');
      await pg.query(
        `INSERT INTO events SELECT i, 'k' || (i % 5), i % 1000, to_timestamp((${CHAOS_START} + i * 10) / 1000.0)
         FROM generate_series(1, ${INITIAL}) AS i`,
      );
      const job = writeJob(dir, {
        format: 'weir.job/v1',
        name: 'chaos-cdc',
        settings: {
          parallelism: 1,
          stateBackend: 'fs',
          checkpointing: { interval: '100ms', dir: 'checkpoints' },
          restart: { attempts: 10, delay: '100ms' },
        },
        nodes: [
          { id: 'src', type: 'source.postgres', config: { url: pg.url, table: 'events', mode: 'cdc' } },
          { id: 'keep', type: 'filter', config: { where: 'v >= 0' } },
          { id: 'out', type: 'sink.file', config: { path: 'out', format: 'changelog-json' } },
        ],
        edges: [
          { from: 'src', to: 'keep' },
          { from: 'keep', to: 'out' },
        ],
      });
      const root = join(dir, 'checkpoints');
      driver = new PgChangeDriver(
        pg.url,
        7,
        Array.from({ length: INITIAL }, (_, i) => i + 1),
        INITIAL + 1,
      );
      driver.start();
      let confirmChecks = 0;
      const checkConfirm = async () => {
        const confirmed = await slotConfirmed(pg);
        const safe = latestSafeLsn(root);
        if (confirmed === null || safe === null) return;
        assert.ok(confirmed <= safe, `slot confirmed ${confirmed} past the newest completed checkpoint's ${safe}`);
        confirmChecks++;
      };

      // The whole run, SIGKILLed a random moment after a checkpoint completed.
      let wholeKills = 0;
      for (let i = 0; i < 3; i++) {
        const before = latestCheckpointId(root);
        const run = startWeir(['run', job, '--quiet', ...(before > 0 ? ['--resume'] : [])], dir);
        await waitFor(() => latestCheckpointId(root) > before, 'a new completed checkpoint', 90_000);
        await sleep(random() * 300);
        run.child.kill('SIGKILL');
        await run.result;
        wholeKills++;
        await checkConfirm();
      }

      // One long run whose task process is SIGKILLed twice; the job master restarts it.
      const run = startWeir(['run', job, '--resume'], dir);
      let taskKills = 0;
      for (let i = 0; i < 2; i++) {
        const before = latestCheckpointId(root);
        await waitFor(() => latestCheckpointId(root) > before + 2, 'checkpoints after a restart', 90_000);
        await sleep(random() * 300);
        const kids = childPids(run.child.pid!);
        assert.ok(kids.length > 0, 'the run has a task process');
        for (const k of kids) process.kill(k, 'SIGKILL');
        taskKills++;
        await checkConfirm();
      }
      await driver.stop();
      const changes = driver.changes;
      driver = null;
      const expected = await referenceTable(pg);

      // Wait for the committed changelog to reach the table's final state, then stop the job.
      let last = { size: 0, violations: [] as string[] };
      await waitFor(
        () => {
          const m = materialize(committedChangelog(join(dir, 'out')), 'id');
          last = { size: m.table.size, violations: m.violations };
          return (
            m.violations.length > 0 ||
            (m.table.size === expected.size && [...expected].every(([k, v]) => m.table.get(k) === v))
          );
        },
        'the committed changelog to reach the final table',
        120_000,
      );
      await checkConfirm();
      run.child.kill('SIGINT');
      const r = await run.result;
      assert.equal(r.code, 0, r.stderr);

      assert.deepEqual(last.violations.slice(0, 5), [], 'no doubled or lost change');
      assert.equal(last.size, expected.size);
      assert.equal(wholeKills, 3);
      assert.equal(taskKills, 2);
      assert.ok(confirmChecks >= 3, `the slot's confirmed LSN was compared ${confirmChecks} times`);
      // Guard: the writer really inserted, updated and deleted while the job ran.
      assert.ok(changes.insert > 50 && changes.update > 50 && changes.delete > 20, JSON.stringify(changes));
    } finally {
      await driver?.stop().catch(() => undefined);
      await pg.stop();
      cleanup();
    }
  },
);
