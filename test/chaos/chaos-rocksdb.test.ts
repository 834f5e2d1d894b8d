/** Chaos, rocksdb backend: SIGKILL the whole `weir run` at random moments, `--resume`, compare exactly. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { tempDir, writeJob } from '../support/run-helpers.ts';
import { chaosJob, EVENTS } from './chaos-job.ts';
import { assertOutputEqualsReference, checkpointProgress, killWholeProcessLoop } from './chaos-runner.ts';

test(
  'rocksdb: killed 5+ times with SIGKILL and resumed, the committed output equals the reference exactly',
  { timeout: 120_000 },
  async () => {
    const { dir, cleanup } = tempDir('chaos-rocksdb');
    try {
      const job = writeJob(dir, chaosJob('rocksdb', { rate: 50_000 }));
      const r = await killWholeProcessLoop(dir, job, 5, 7, {
        minMs: 700,
        spanMs: 1300,
        progress: checkpointProgress(join(dir, 'checkpoints'), { records: EVENTS }),
      });
      assert.equal(r.final.code, 0, r.final.stderr);
      assert.ok(r.kills >= 5, `only ${r.kills} kills happened before the job finished`);
      assertOutputEqualsReference(join(dir, 'out'));
    } finally {
      cleanup();
    }
  },
);
