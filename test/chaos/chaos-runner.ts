/** Kill loops shared by the chaos tests. */
import { existsSync, readdirSync } from 'node:fs';
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

/** Highest completed checkpoint id under a checkpoint root (0 if none). */
export function latestCheckpointId(root: string): number {
  let best = 0;
  if (!existsSync(root)) return 0;
  for (const job of readdirSync(root)) {
    for (const d of readdirSync(join(root, job))) {
      const m = /^chk-(\d+)$/.exec(d);
      if (m && existsSync(join(root, job, d, '_metadata'))) best = Math.max(best, Number(m[1]));
    }
  }
  return best;
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
  timing: { minMs: number; spanMs: number; afterCheckpoint?: boolean; noFinal?: boolean } = {
    minMs: 700,
    spanMs: 1300,
  },
): Promise<{ kills: number; final: RunResult }> {
  const random = rng(seed);
  let done = 0;
  for (let guard = 0; done < kills && guard < kills * 4; guard++) {
    const resume = hasCompletedCheckpoint(join(dir, 'checkpoints'));
    const run = startWeir(['run', jobFile, '--quiet', ...(resume ? ['--resume'] : [])], dir);
    const wait = timing.afterCheckpoint
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

/** SIGKILL only the task process of one `weir run`, at random moments; the run must recover. */
export async function killTaskProcessLoop(
  dir: string,
  jobFile: string,
  kills: number,
  seed: number,
): Promise<{ kills: number; final: RunResult }> {
  const random = rng(seed);
  const run = startWeir(['run', jobFile], dir);
  let done = 0;
  let ended = false;
  void run.result.then(() => {
    ended = true;
  });
  while (done < kills && !ended) {
    await sleep(600 + random() * 900);
    const kids = childPids(run.child.pid!);
    if (kids.length === 0 || ended) continue;
    for (const k of kids) {
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
