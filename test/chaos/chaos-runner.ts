/**
 * Kill loops shared by the chaos tests.
 *
 * Kills are spread over the job's progress, so a guard such as "5 kills before the job finished"
 * holds on any machine and under any load (issue 23, item 11: a loaded machine let a job finish
 * before its kills landed). A loop given `progress` (the committed fraction of the job's output,
 * 0..1) takes kill i of n at its random moment only while progress <= 0.6 * (i + 1) / (n + 1); past
 * that schedule the kill lands at the first sign the restored job processes again (a checkpoint newer
 * than the ones before is triggered, or a new task process is up), which commits at most one more
 * checkpoint. Loops stop waiting on events, never on fixed sleeps alone.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import {
  canonical,
  childPids,
  diffMultisets,
  readCommitted,
  rng,
  sleep,
  startWeir,
  type RunResult,
} from '../support/run-helpers.ts';
import { chaosReference } from './chaos-job.ts';

/** Highest checkpoint id under a checkpoint root (0 if none): completed, or `started` (its folder exists). */
function highestCheckpointId(root: string, started: boolean): number {
  let best = 0;
  if (!existsSync(root)) return 0;
  for (const job of readdirSync(root)) {
    for (const d of readdirSync(join(root, job))) {
      const m = /^chk-(\d+)$/.exec(d);
      if (m && (started || existsSync(join(root, job, d, '_metadata')))) best = Math.max(best, Number(m[1]));
    }
  }
  return best;
}

/** Highest completed checkpoint id under a checkpoint root (0 if none). */
export function latestCheckpointId(root: string): number {
  return highestCheckpointId(root, false);
}

/** Highest checkpoint id triggered (a task wrote into its folder; complete or not). */
export function latestStartedCheckpointId(root: string): number {
  return highestCheckpointId(root, true);
}

/**
 * The share of the job's progress the kills are spread over: the rest is the margin for a kill at
 * a random moment that turned out costly (a slow checkpoint on a loaded machine).
 */
const KILL_SPAN = 0.6;

/** True when kill `i` (0-based) of `n` is behind the job: `progress` past KILL_SPAN * (i + 1) / (n + 1). */
export function aheadOfKills(progress: number, i: number, n: number): boolean {
  return progress > (KILL_SPAN * (i + 1)) / (n + 1);
}

/**
 * How far the sources of the latest completed checkpoint got (for `progress`): generators by their
 * lowest next sequence number of `records`, file sources by the bytes read of `bytes`. Read from
 * `_metadata` (fs and rocksdb backends), so it moves only when a checkpoint completes.
 */
export function checkpointProgress(root: string, total: { records?: number; bytes?: number }): () => number {
  let last = 0;
  return () => {
    const id = latestCheckpointId(root);
    if (id === 0) return last;
    try {
      const [job] = readdirSync(root);
      const meta = JSON.parse(readFileSync(join(root, job, `chk-${id}`, '_metadata'), 'utf8')) as {
        states: Array<{ operator?: { state?: { position?: SourcePosition } } }>;
      };
      let lowest = Infinity;
      let bytes = 0;
      for (const s of meta.states) {
        const pos = s.operator?.state?.position;
        for (const x of pos?.streams ?? []) lowest = Math.min(lowest, x.next);
        for (const f of Object.values(pos?.files ?? {})) bytes += f.offset;
      }
      if (total.records && lowest !== Infinity) last = lowest / total.records;
      if (total.bytes) last = bytes / total.bytes;
    } catch {
      /* a checkpoint being retired while read: the last answer stands */
    }
    return last;
  };
}

interface SourcePosition {
  streams?: Array<{ next: number }>;
  files?: Record<string, { offset: number }>;
}

/** The committed fraction of a file sink's expected `total` lines (for `progress`). */
export function committedFraction(outDir: string, total: number): () => number {
  let last = 0;
  return () => {
    let lines = 0;
    try {
      for (const n of readdirSync(outDir)) {
        if (n.startsWith('.')) continue;
        const p = join(outDir, n);
        if (!statSync(p).isFile()) continue;
        const text = readFileSync(p, 'utf8');
        for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lines++;
      }
      last = lines / total;
    } catch {
      /* a file renamed while listing: the last answer stands */
    }
    return last;
  };
}

/** Resolves once a checkpoint newer than `after` was triggered (the restored job processes), or on timeout. */
async function startedCheckpoint(root: string, after: number, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end && latestStartedCheckpointId(root) <= after) await sleep(5);
}

/** Resolves once a checkpoint newer than `after` completed (the job is really processing), or on timeout. */
async function newCheckpoint(root: string, after: number, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end && latestCheckpointId(root) <= after) await sleep(5);
}

export function hasCompletedCheckpoint(root: string): boolean {
  if (!existsSync(root)) return false;
  for (const job of readdirSync(root)) {
    for (const d of readdirSync(join(root, job))) {
      if (/^chk-\d+$/.test(d) && existsSync(join(root, job, d, '_metadata'))) return true;
    }
  }
  return false;
}

/** SIGKILL the whole `weir run` at random moments, then `--resume`; finally run to completion. */
export async function killWholeProcessLoop(
  dir: string,
  jobFile: string,
  kills: number,
  seed: number,
  timing: {
    minMs: number;
    spanMs: number;
    afterCheckpoint?: boolean;
    noFinal?: boolean;
    /** The committed fraction of the job's output (see the header): kills keep ahead of it. */
    progress?: () => number;
  } = {
    minMs: 700,
    spanMs: 1300,
  },
): Promise<{ kills: number; final: RunResult }> {
  const random = rng(seed);
  const root = join(dir, 'checkpoints');
  let done = 0;
  for (let guard = 0; done < kills && guard < kills * 4; guard++) {
    const resume = hasCompletedCheckpoint(root);
    const hurry = timing.progress !== undefined && aheadOfKills(timing.progress(), done, kills);
    const started = latestStartedCheckpointId(root);
    const run = startWeir(['run', jobFile, '--quiet', ...(resume ? ['--resume'] : [])], dir);
    const wait = hurry
      ? startedCheckpoint(root, started, 20_000)
      : timing.afterCheckpoint
        ? // Kill a random moment after the next checkpoint completed: mid-processing, never during start-up.
          newCheckpoint(join(dir, 'checkpoints'), latestCheckpointId(join(dir, 'checkpoints')), 20_000).then(() =>
            sleep(random() * timing.spanMs),
          )
        : sleep(timing.minMs + random() * timing.spanMs);
    const exited = await Promise.race([run.result.then(() => true), wait.then(() => false)]);
    if (exited) {
      const r = await run.result;
      assert.equal(r.code, 0, `weir run ended early: ${r.stderr}`);
      return { kills: done, final: r };
    }
    run.child.kill('SIGKILL');
    await run.result;
    done++;
  }
  if (timing.noFinal) return { kills: done, final: { code: null, signal: 'SIGKILL', stderr: '', stdout: '' } };
  const resume = hasCompletedCheckpoint(join(dir, 'checkpoints'));
  const final = startWeir(['run', jobFile, '--quiet', ...(resume ? ['--resume'] : [])], dir);
  const t = setTimeout(() => final.child.kill('SIGKILL'), 90_000);
  const r = await final.result;
  clearTimeout(t);
  return { kills: done, final: r };
}

/** Resolves once the run has a task process not in `killed` (the restarted one), or it ended. */
async function newTaskProcess(pid: number, killed: Set<number>, ended: () => boolean): Promise<void> {
  const end = Date.now() + 30_000;
  while (!ended() && Date.now() < end && !childPids(pid).some((k) => !killed.has(k))) await sleep(5);
}

/**
 * SIGKILL only the task process of one `weir run`, at random moments; the run must recover.
 * `progress`: as for killWholeProcessLoop; behind it, a kill lands as soon as the restarted task
 * process is up.
 */
export async function killTaskProcessLoop(
  dir: string,
  jobFile: string,
  kills: number,
  seed: number,
  progress?: () => number,
): Promise<{ kills: number; final: RunResult }> {
  const random = rng(seed);
  const run = startWeir(['run', jobFile], dir);
  let done = 0;
  let ended = false;
  void run.result.then(() => {
    ended = true;
  });
  const killed = new Set<number>();
  while (done < kills && !ended) {
    if (progress !== undefined && aheadOfKills(progress(), done, kills)) {
      await newTaskProcess(run.child.pid!, killed, () => ended);
      await sleep(random() * 50);
    } else await sleep(600 + random() * 900);
    const kids = childPids(run.child.pid!);
    if (kids.length === 0 || ended) continue;
    for (const k of kids) {
      killed.add(k);
      try {
        process.kill(k, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
    done++;
  }
  const t = setTimeout(() => run.child.kill('SIGKILL'), 90_000);
  const r = await run.result;
  clearTimeout(t);
  return { kills: done, final: r };
}

export function assertOutputEqualsReference(outDir: string): void {
  const actual = readCommitted(outDir).map((l) => canonical(l));
  const expected = chaosReference().map((r) => canonical(r));
  const { missing, extra } = diffMultisets(actual, expected);
  assert.deepEqual(
    { missing: missing.slice(0, 5), extra: extra.slice(0, 5), missingCount: missing.length, extraCount: extra.length },
    { missing: [], extra: [], missingCount: 0, extraCount: 0 },
  );
  assert.equal(actual.length, expected.length);
  // Nothing unfinished may be left visible, and no transaction may linger once the job finished.
  const hidden = readdirSync(outDir).filter((n) => n.startsWith('.') && n !== '.weir-sink-manifest.jsonl');
  assert.deepEqual(hidden, [], 'no pending transactions after a finished job');
}
