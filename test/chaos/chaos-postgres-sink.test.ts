/**
 * Chaos against a real PostgreSQL: one job feeds a `sink.postgres` in append mode and one in upsert
 * mode (behind a per-key aggregate), so every kill hits both. It is SIGKILLed at seeded random
 * moments: the task process only (the run restarts it), and the whole `weir run` (resumed with
 * `--resume`); some kills are aimed between PREPARE TRANSACTION and COMMIT PREPARED (a prepared gid
 * of the job is visible in pg_prepared_xacts, and still is after the kill), one is forced there by
 * the host's fault hook. The last run resumes to completion; each table must equal its reference
 * exactly and no prepared transaction of the job may be left.
 *
 * Set CHAOS_SEED to replay a failing seed (it is printed).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startPgCluster, type PgCluster } from '../support/postgres-cluster.ts';
import {
  childPids,
  rng,
  sleep,
  startWeir,
  startWeirWithFaults,
  tempDir,
  waitForExit,
  watchTaskPids,
  writeJob,
  type RunningWeir,
} from '../support/run-helpers.ts';
import { hasCompletedCheckpoint, latestCheckpointId } from './chaos-runner.ts';
import {
  APPEND_ROWS_SQL,
  APPEND_TABLE_SQL,
  UPSERT_ROWS_SQL,
  UPSERT_TABLE_SQL,
  appendAndUpsertJob,
  appendReference,
  rowStrings,
  upsertReference,
} from '../engine/connectors/postgres/pg-sink-jobs.ts';
import { gidPrefix } from '../../engine/connectors/postgres/sink-txn.ts';

const SEED = Number(process.env.CHAOS_SEED ?? Date.now() % 1_000_000);
console.log(`chaos-postgres-sink seed ${SEED} (CHAOS_SEED=${SEED} replays it)`);

const JOB = 'chaos-pg';
const COUNT = 60_000;
const RATE = 6_000; // 10 s of data: enough runway for every kill before the job ends
const PREFIXES = [gidPrefix(JOB, 'pga'), gidPrefix(JOB, 'pgu')];

let pg: PgCluster;
before(async () => {
  pg = await startPgCluster();
});
after(async () => {
  await pg?.stop();
});

async function preparedOfJob(): Promise<string[]> {
  const rows = await pg.query<{ gid: string }>(
    'SELECT gid FROM pg_prepared_xacts WHERE starts_with(gid, $1) OR starts_with(gid, $2)',
    PREFIXES,
  );
  return rows.map((r) => r.gid);
}

function ended(run: RunningWeir): () => boolean {
  let done = false;
  void run.result.then(() => (done = true));
  return () => done;
}

/** Polls pg_prepared_xacts until one of the job's transactions is prepared (true), or the run ended. */
async function untilPrepared(run: RunningWeir, timeoutMs = 15_000): Promise<boolean> {
  const isEnded = ended(run);
  const end = Date.now() + timeoutMs;
  while (!isEnded() && Date.now() < end) if ((await preparedOfJob()).length > 0) return true;
  return false;
}

/** Resolves once a checkpoint newer than `afterId` completed (the attempt is processing), or the run ended. */
async function untilCheckpointAfter(root: string, afterId: number, run: RunningWeir): Promise<void> {
  const isEnded = ended(run);
  const end = Date.now() + 60_000;
  while (!isEnded() && Date.now() < end && latestCheckpointId(root) <= afterId) await sleep(10);
}

interface Tally {
  taskKills: number;
  runKills: number;
  betweenPrepareAndCommit: number;
}

/** `killHostBeforeNotify`: through the test-only entry (run-helpers.ts, startWeirWithFaults). */
function startRun(dir: string, jobFile: string, faults?: { killHostBeforeNotify: number }): RunningWeir {
  const resume = hasCompletedCheckpoint(join(dir, 'checkpoints'));
  const args = ['run', jobFile, '--quiet', ...(resume ? ['--resume'] : [])];
  return faults ? startWeirWithFaults(args, dir, faults) : startWeir(args, dir);
}

/** One run whose task process is SIGKILLed `kills` times; every other kill aimed at a prepared transaction. */
async function killTaskProcesses(dir: string, jobFile: string, kills: number, random: () => number, t: Tally) {
  const root = join(dir, 'checkpoints');
  const run = startRun(dir, jobFile);
  const tasks = watchTaskPids(run);
  const isEnded = ended(run);
  for (let i = 0; i < kills && !isEnded(); i++) {
    await untilCheckpointAfter(root, latestCheckpointId(root), run); // the restarted task is processing
    const aimed = i % 2 === 1 && (await untilPrepared(run));
    if (!aimed) await sleep(random() * 300);
    const kids = childPids(run.child.pid!);
    if (kids.length === 0 || isEnded()) continue;
    for (const k of kids) {
      try {
        process.kill(k, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
    t.taskKills++;
    if (aimed) t.betweenPrepareAndCommit++;
  }
  run.child.kill('SIGKILL');
  await run.result;
  await waitForExit(tasks);
}

/** `kills` whole runs SIGKILLed, each resumed by the next; every other kill aimed at a prepared transaction. */
async function killWholeRuns(dir: string, jobFile: string, kills: number, random: () => number, t: Tally) {
  const root = join(dir, 'checkpoints');
  for (let i = 0; i < kills; i++) {
    const run = startRun(dir, jobFile);
    const tasks = watchTaskPids(run);
    await untilCheckpointAfter(root, latestCheckpointId(root), run);
    const aimed = i % 2 === 0 && (await untilPrepared(run));
    if (!aimed) await sleep(random() * 400);
    run.child.kill('SIGKILL');
    const r = await run.result;
    if (r.signal !== 'SIGKILL') break; // it finished first: nothing left to kill
    t.runKills++;
    // Counted only when the prepared transaction outlived the kill (COMMIT PREPARED had not run).
    if (aimed && (await preparedOfJob()).length > 0) t.betweenPrepareAndCommit++;
    // A task process outliving its host notices and exits; the next run starts after it.
    await waitForExit(tasks);
  }
}

/** The host kills itself after a checkpoint is stored and before notify: prepared, never committed. */
async function killBeforeNotify(dir: string, jobFile: string, t: Tally) {
  const at = latestCheckpointId(join(dir, 'checkpoints')) + 2;
  const run = startRun(dir, jobFile, { killHostBeforeNotify: at });
  const tasks = watchTaskPids(run);
  const r = await run.result;
  assert.equal(r.signal, 'SIGKILL', `the fault hook did not fire: ${r.stderr}`);
  await waitForExit(tasks);
  assert.ok((await preparedOfJob()).length > 0, `checkpoint ${at}'s transactions are prepared, not committed`);
  t.runKills++;
  t.betweenPrepareAndCommit++;
}

test(
  'append and upsert under 10+ SIGKILLs each: the tables equal their references exactly',
  { timeout: 240_000 },
  async () => {
    await pg.query(APPEND_TABLE_SQL('public.chaos_append'));
    await pg.query(UPSERT_TABLE_SQL('public.chaos_upsert'));
    const { dir, cleanup } = tempDir('chaos-pg');
    const random = rng(SEED);
    const t: Tally = { taskKills: 0, runKills: 0, betweenPrepareAndCommit: 0 };
    try {
      const job = writeJob(
        dir,
        appendAndUpsertJob({
          name: JOB,
          url: pg.url,
          table: 'public.chaos_append',
          upsertTable: 'public.chaos_upsert',
          count: COUNT,
          rate: RATE,
          interval: '150ms',
        }),
      );
      await killTaskProcesses(dir, job, 6, random, t);
      await killBeforeNotify(dir, job, t);
      await killWholeRuns(dir, job, 3, random, t);
      const final = startRun(dir, job);
      const guard = setTimeout(() => final.child.kill('SIGKILL'), 120_000);
      const r = await final.result;
      clearTimeout(guard);
      assert.equal(r.code, 0, r.stderr);
      console.log(`kills (each hits both sinks): ${JSON.stringify(t)}`);
      const appended = rowStrings(await pg.query(APPEND_ROWS_SQL('public.chaos_append')));
      assert.equal(appended.length, COUNT, 'append: one row per record, none twice');
      assert.deepEqual(appended, appendReference(COUNT));
      assert.deepEqual(rowStrings(await pg.query(UPSERT_ROWS_SQL('public.chaos_upsert'))), upsertReference(COUNT));
      assert.deepEqual(await preparedOfJob(), [], 'no prepared transaction left');
      assert.ok(t.taskKills + t.runKills >= 10, `only ${JSON.stringify(t)} before the job finished`);
      assert.ok(t.taskKills >= 3 && t.runKills >= 3, `kills of both kinds: ${JSON.stringify(t)}`);
      assert.ok(t.betweenPrepareAndCommit >= 2, `kills between prepare and commit: ${JSON.stringify(t)}`);
    } finally {
      cleanup();
    }
  },
);
