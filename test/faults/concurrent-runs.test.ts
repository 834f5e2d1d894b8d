/**
 * Issue 11, item 1: one run per job. Two `weir run` of one job at once, or a run plus a
 * `--resume`: the second is refused at once (non-zero, naming the holder), the first finishes and
 * its committed output equals the reference exactly. A SIGKILLed run's lock is stale and the next
 * run takes it over, saying so.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runWeir, startWeir, tempDir, writeJob } from '../support/run-helpers.ts';
import { assertExact, faultJob, faultReference, waitForCheckpoint, killRun } from './fault-job.ts';

const reference = faultReference();

describe('faults: concurrent runs of one job', () => {
  for (const second of [[], ['--resume']]) {
    it(`a second run${second.length ? ' with --resume' : ''} is refused while the first runs; the first's output is exact`, async () => {
      const { dir, cleanup } = tempDir('faults-lock');
      try {
        // Slow enough (about 15 s) that the first run is still going when the second one has started
        // and been refused, even on a busy 2-core machine where starting `weir run` takes seconds.
        const job = writeJob(dir, faultJob('fs', { rate: 160 }));
        const first = startWeir(['run', job, '--quiet'], dir);
        const cpRoot = join(dir, 'checkpoints', 'faults-fs');
        await waitForCheckpoint(cpRoot, 1);
        const lock = JSON.parse(readFileSync(join(cpRoot, '.weir-lock'), 'utf8'));
        assert.equal(lock.pid, first.child.pid);
        const r2 = await runWeir(['run', job, '--quiet', ...second], dir, 30_000);
        assert.equal(first.child.exitCode, null, 'the first run was still going when the second was refused');
        assert.notEqual(r2.code, 0, `the second run is refused: ${r2.stderr}`);
        assert.match(r2.stderr, new RegExp(`in use by another run of Weir: pid ${first.child.pid} on host`));
        const r1 = await first.result;
        assert.equal(r1.code, 0, r1.stderr);
        assertExact(join(dir, 'out'), reference, 'first run');
        assert.ok(!existsSync(join(cpRoot, '.weir-lock')), 'the lock is released when the run ends');
        assert.ok(!existsSync(join(dir, 'out', '.weir-lock')));
      } finally {
        cleanup();
      }
    });
  }

  it('a SIGKILLed run leaves a stale lock that --resume takes over, and the output is exact', async () => {
    const { dir, cleanup } = tempDir('faults-stale');
    try {
      const job = writeJob(dir, faultJob('fs'));
      const first = startWeir(['run', job], dir);
      const cpRoot = join(dir, 'checkpoints', 'faults-fs');
      await waitForCheckpoint(cpRoot, 3);
      await killRun(first);
      assert.ok(existsSync(join(cpRoot, '.weir-lock')), 'SIGKILL leaves the lock behind');
      const r = await runWeir(['run', job, '--resume'], dir);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, new RegExp(`took over the lock of pid ${first.child.pid} .*which no longer runs`));
      assertExact(join(dir, 'out'), reference, 'after take-over');
    } finally {
      cleanup();
    }
  });
});
