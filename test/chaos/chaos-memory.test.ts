/** Chaos, memory backend: SIGKILL the task process at random moments; the run restores from the host's copy. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { tempDir, writeJob } from '../support/run-helpers.ts';
import { chaosJob, chaosReference } from './chaos-job.ts';
import { assertOutputEqualsReference, committedFraction, killTaskProcessLoop } from './chaos-runner.ts';

test(
  'memory: task process killed 5+ times, the run recovers and the committed output equals the reference',
  { timeout: 120_000 },
  async () => {
    const { dir, cleanup } = tempDir('chaos-memory');
    try {
      const job = writeJob(dir, chaosJob('memory', { rate: 40_000, attempts: 50 }));
      // Memory checkpoints leave no files: progress is the committed output.
      const progress = committedFraction(join(dir, 'out'), chaosReference().length);
      const r = await killTaskProcessLoop(dir, job, 5, 11, progress);
      assert.equal(r.final.code, 0, r.final.stderr);
      assert.ok(r.kills >= 5, `only ${r.kills} kills happened before the job finished`);
      assert.match(r.final.stderr, /restart/);
      assertOutputEqualsReference(join(dir, 'out'));
    } finally {
      cleanup();
    }
  },
);
