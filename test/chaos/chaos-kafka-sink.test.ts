/**
 * Chaos against a real Kafka 4.x broker: one job feeds a `sink.kafka` appending every record and
 * one upserting a per-key aggregate (so every kill hits both), once with `exactly-once` and once
 * with `at-least-once`. Each is SIGKILLed at seeded random moments, at least 10 times: the task
 * process only (the run restarts it) and the whole `weir run` (resumed with `--resume`); twice the
 * host's fault hook kills the run after a checkpoint is stored and before it is committed, between
 * the flush and the commit, and the checkpoint's transactions are seen open on the broker then. The
 * last run resumes to completion; a read_committed reader then sees exactly the reference
 * (exactly-once) or every reference row at least once (at-least-once), and the broker's own
 * transaction listing (TransactionsCommand) shows no open transaction of the job.
 *
 * Set CHAOS_SEED to replay a failing seed (it is printed).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startKafkaBroker, type KafkaBroker } from '../support/kafka-broker.ts';
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
import { aheadOfKills, checkpointProgress, hasCompletedCheckpoint, latestCheckpointId } from './chaos-runner.ts';
import {
  appendAndUpsertJob,
  appendReference,
  appendedRows,
  upsertedRows,
  upsertReference,
} from '../engine/connectors/kafka/kafka-sink-jobs.ts';
import { KafkaTransactionAdmin, OPEN_TRANSACTION_STATES } from '../../engine/connectors/kafka/transaction-admin.ts';

const SEED = Number(process.env.CHAOS_SEED ?? Date.now() % 1_000_000);
console.log(`chaos-kafka-sink seed ${SEED} (CHAOS_SEED=${SEED} replays it)`);

const COUNT = 60_000;
const RATE = 4_000; // 15 s of data; the kills keep ahead of it (chaos-runner.ts)
const TASK_KILLS = 5;
const HOOK_KILLS = 2;
const RUN_KILLS = 3;
const ALL_KILLS = TASK_KILLS + HOOK_KILLS + RUN_KILLS;

let broker: KafkaBroker;
let admin: KafkaTransactionAdmin;
before(async () => {
  broker = await startKafkaBroker();
  admin = new KafkaTransactionAdmin([broker.bootstrap]);
});
after(async () => {
  admin?.close();
  await broker?.stop();
});

interface Tally {
  taskKills: number;
  runKills: number;
  betweenFlushAndCommit: number;
  /** Checkpointed progress (%) when each kill landed, `!` when it was behind schedule. */
  progress: string[];
}

interface Chaos {
  dir: string;
  jobFile: string;
  prefix: string;
  random: () => number;
  t: Tally;
  progress: () => number;
}

function ended(run: RunningWeir): () => boolean {
  let done = false;
  void run.result.then(() => (done = true));
  return () => done;
}

function startRun(dir: string, jobFile: string, faults?: { killHostBeforeNotify: number }): RunningWeir {
  const resume = hasCompletedCheckpoint(join(dir, 'checkpoints'));
  const args = ['run', jobFile, '--quiet', ...(resume ? ['--resume'] : [])];
  return faults ? startWeirWithFaults(args, dir, faults) : startWeir(args, dir);
}

/** Resolves once a checkpoint newer than `afterId` completed (the attempt is processing), or the run ended. */
async function untilCheckpointAfter(root: string, afterId: number, run: RunningWeir): Promise<void> {
  const isEnded = ended(run);
  const end = Date.now() + 60_000;
  while (!isEnded() && Date.now() < end && latestCheckpointId(root) <= afterId) await sleep(10);
}

function note(c: Chaos, hurry: boolean): void {
  c.t.progress.push(`${Math.round(c.progress() * 100)}${hurry ? '!' : ''}`);
}

function behind(c: Chaos): boolean {
  return aheadOfKills(c.progress(), c.t.taskKills + c.t.runKills, ALL_KILLS);
}

/** Open transactions of the job (the protocol listing: fast enough to poll). */
async function openOfJob(prefix: string): Promise<string[]> {
  return (await admin.listTransactions(OPEN_TRANSACTION_STATES))
    .map((t) => t.transactionalId)
    .filter((id) => id.startsWith(prefix));
}

/** One run whose task process is SIGKILLed `kills` times, each once the restarted task processes again. */
async function killTaskProcesses(c: Chaos, kills: number): Promise<void> {
  const root = join(c.dir, 'checkpoints');
  const run = startRun(c.dir, c.jobFile);
  const tasks = watchTaskPids(run);
  const isEnded = ended(run);
  for (let i = 0; i < kills && !isEnded(); i++) {
    const hurry = behind(c);
    await untilCheckpointAfter(root, latestCheckpointId(root), run);
    if (!hurry) await sleep(c.random() * 300);
    const kids = childPids(run.child.pid!);
    if (kids.length === 0 || isEnded()) continue;
    for (const k of kids) {
      try {
        process.kill(k, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
    c.t.taskKills++;
    note(c, hurry);
  }
  run.child.kill('SIGKILL');
  await run.result;
  await waitForExit(tasks);
}

/**
 * The host kills itself once its first checkpoint is stored and before notify: the sinks flushed
 * and pre-committed, nothing committed. The checkpoint's transactions are open on the broker.
 */
async function killBeforeNotify(c: Chaos, exactlyOnce: boolean): Promise<void> {
  const at = latestCheckpointId(join(c.dir, 'checkpoints')) + 1;
  const run = startRun(c.dir, c.jobFile, { killHostBeforeNotify: at });
  const tasks = watchTaskPids(run);
  const r = await run.result;
  assert.equal(r.signal, 'SIGKILL', `the fault hook did not fire: ${r.stderr}`);
  await waitForExit(tasks);
  if (exactlyOnce)
    assert.ok((await openOfJob(c.prefix)).length > 0, `checkpoint ${at}'s transactions are open, not committed`);
  c.t.runKills++;
  c.t.betweenFlushAndCommit++;
  note(c, false);
}

/** `kills` whole runs SIGKILLed, each resumed by the next. */
async function killWholeRuns(c: Chaos, kills: number): Promise<void> {
  const root = join(c.dir, 'checkpoints');
  for (let i = 0; i < kills; i++) {
    const hurry = behind(c);
    const run = startRun(c.dir, c.jobFile);
    const tasks = watchTaskPids(run);
    await untilCheckpointAfter(root, latestCheckpointId(root), run);
    if (!hurry) await sleep(c.random() * 400);
    run.child.kill('SIGKILL');
    const r = await run.result;
    if (r.signal !== 'SIGKILL') break; // it finished first: nothing left to kill
    c.t.runKills++;
    note(c, hurry);
    await waitForExit(tasks);
  }
}

async function chaos(guarantee: 'exactly-once' | 'at-least-once', name: string): Promise<Tally> {
  const topic = `${name}-append`;
  const upsertTopic = `${name}-upsert`;
  await broker.createTopic(topic, 3);
  await broker.createTopic(upsertTopic, 2);
  const { dir, cleanup } = tempDir(name);
  const t: Tally = { taskKills: 0, runKills: 0, betweenFlushAndCommit: 0, progress: [] };
  try {
    const job = writeJob(
      dir,
      appendAndUpsertJob({
        name,
        bootstrap: broker.bootstrap,
        topic,
        upsertTopic,
        count: COUNT,
        rate: RATE,
        interval: '150ms',
        guarantee,
      }),
    );
    const c: Chaos = {
      dir,
      jobFile: job,
      prefix: `weir-${name}-`,
      random: rng(SEED + (guarantee === 'exactly-once' ? 0 : 1)),
      t,
      progress: checkpointProgress(join(dir, 'checkpoints'), { records: COUNT }),
    };
    await killTaskProcesses(c, TASK_KILLS);
    for (let i = 0; i < HOOK_KILLS; i++) await killBeforeNotify(c, guarantee === 'exactly-once');
    await killWholeRuns(c, RUN_KILLS);
    const final = startRun(dir, job);
    const guard = setTimeout(() => final.child.kill('SIGKILL'), 120_000);
    const r = await final.result;
    clearTimeout(guard);
    assert.equal(r.code, 0, r.stderr);
    console.log(`${guarantee} kills (each hits both sinks): ${JSON.stringify(t)}`);
    assert.deepEqual(broker.openTransactions(c.prefix), [], 'the broker lists no open transaction of the job');
    const appended = appendedRows(await broker.readCommitted(topic));
    const upserted = upsertedRows(await broker.readCommitted(upsertTopic));
    if (guarantee === 'exactly-once') {
      assert.equal(appended.length, COUNT, 'append: one message per record, none twice');
      assert.deepEqual(appended, appendReference(COUNT));
    } else {
      assert.deepEqual([...new Set(appended)].sort(), appendReference(COUNT), 'append: every record at least once');
      console.log(`at-least-once: ${appended.length - COUNT} of ${appended.length} appended messages were replays`);
    }
    assert.deepEqual(upserted, upsertReference(COUNT));
    assert.ok(t.taskKills + t.runKills >= 10, `only ${JSON.stringify(t)} before the job finished`);
    assert.ok(t.taskKills >= 3 && t.runKills >= 3, `kills of both kinds: ${JSON.stringify(t)}`);
    assert.ok(t.betweenFlushAndCommit >= 2, `kills between flush and commit: ${JSON.stringify(t)}`);
    return t;
  } finally {
    cleanup();
  }
}

test('exactly-once under 10+ SIGKILLs: read_committed sees exactly the reference', { timeout: 300_000 }, async () => {
  await chaos('exactly-once', 'chaos-keo');
});

test('at-least-once under 10+ SIGKILLs: every reference row arrives', { timeout: 300_000 }, async () => {
  await chaos('at-least-once', 'chaos-kal');
});
