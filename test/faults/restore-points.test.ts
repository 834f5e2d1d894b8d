/**
 * Issue 11, "restores are exact or refused": `--from` every retained checkpoint after a crash, and
 * `--from` a savepoint both right after it was taken and again after the job had run to the end
 * from it. Each restore must leave committed output equal to the reference: files committed after
 * the restored checkpoint are rolled back (the replay produces their records again). A damaged
 * sink manifest makes the restore refuse before anything changes.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runWeir, startWeir, tempDir, writeJob } from '../support/run-helpers.ts';
import {
  assertExact,
  assertUnchanged,
  completedCheckpoints,
  copyDir,
  faultJob,
  faultReference,
  snapshotFolder,
  waitForCheckpoint,
  killRun,
} from './fault-job.ts';

const reference = faultReference();

for (const backend of ['fs', 'rocksdb'] as const) {
  describe(`faults: restore points (${backend})`, () => {
    let crashed: string;
    let cleanupCrashed: () => void;
    let retained: number[];

    before(async () => {
      ({ dir: crashed, cleanup: cleanupCrashed } = tempDir(`faults-restore-${backend}`));
      writeJob(crashed, faultJob(backend, { rate: 800, name: 'rp', retained: 4 }), 'job.json');
      const run = startWeir(['run', 'job.json', '--quiet'], crashed);
      await waitForCheckpoint(join(crashed, 'checkpoints', 'rp'), 6);
      await killRun(run);
      // Restores need no pacing: same records, a faster suite.
      writeJob(crashed, faultJob(backend, { rate: null, name: 'rp', retained: 4 }), 'job.json');
      retained = completedCheckpoints(join(crashed, 'checkpoints', 'rp'));
      // Four retained, or five when the kill fell between storing a checkpoint and discarding the oldest.
      assert.ok(retained.length >= 4, `at least four checkpoints retained: ${retained}`);
    });
    after(() => cleanupCrashed());

    it('--from each retained checkpoint (newest to oldest) gives exactly the reference', async () => {
      for (const k of [...retained].reverse()) {
        const { dir, cleanup } = tempDir(`faults-from-${backend}-${k}`);
        try {
          copyDir(crashed, dir);
          const r = await runWeir(['run', 'job.json', '--from', join('checkpoints', 'rp', `chk-${k}`)], dir);
          assert.equal(r.code, 0, r.stderr);
          assertExact(join(dir, 'out'), reference, `--from chk-${k}`);
        } finally {
          cleanup();
        }
      }
    });

    it('--from the oldest checkpoint after the job finished from the newest rolls back and is exact', async () => {
      const { dir, cleanup } = tempDir(`faults-from-old-${backend}`);
      try {
        copyDir(crashed, dir);
        // Keep the oldest checkpoint aside (with the shared files an incremental one refers to):
        // the finished run's retention would discard it.
        copyDir(join(dir, 'checkpoints', 'rp'), join(dir, 'kept'));
        let r = await runWeir(['run', 'job.json', '--resume', '--quiet'], dir);
        assert.equal(r.code, 0, r.stderr);
        assertExact(join(dir, 'out'), reference, 'resumed to the end');
        r = await runWeir(['run', 'job.json', '--from', join('kept', `chk-${retained[0]}`)], dir);
        assert.equal(r.code, 0, r.stderr);
        assert.match(r.stderr, /rolled back \d+ file\(s\) committed after checkpoint/);
        assertExact(join(dir, 'out'), reference, `--from chk-${retained[0]} after the end`);
      } finally {
        cleanup();
      }
    });

    it('a bit flipped in the sink manifest: the restore is refused and nothing changes', async () => {
      const { dir, cleanup } = tempDir(`faults-manifest-${backend}`);
      try {
        copyDir(crashed, dir);
        const manifest = join(dir, 'out', '.weir-sink-manifest.jsonl');
        const text = readFileSync(manifest, 'utf8');
        const at = text.indexOf('"checkpoint":') + '"checkpoint":'.length;
        writeFileSync(manifest, text.slice(0, at) + String((Number(text[at]) + 1) % 10) + text.slice(at + 1));
        const before = snapshotFolder(join(dir, 'out'));
        const r = await runWeir(['run', 'job.json', '--from', join('checkpoints', 'rp', `chk-${retained[0]}`)], dir);
        assert.notEqual(r.code, 0);
        assert.match(
          r.stderr,
          /cannot restore checkpoint \d+ exactly: sink 'out': .*line \d+ is damaged.*Nothing was changed/,
        );
        assertUnchanged(before, snapshotFolder(join(dir, 'out')), 'damaged manifest');
      } finally {
        cleanup();
      }
    });

    it('a savepoint restores exactly, right away and again after the job ran to the end from it', async () => {
      const { dir, cleanup } = tempDir(`faults-savepoint-${backend}`);
      try {
        writeJob(dir, faultJob(backend, { rate: 800, name: 'sp' }), 'job.json');
        const run = startWeir(['run', 'job.json'], dir);
        await waitForCheckpoint(join(dir, 'checkpoints', 'sp'), 3);
        run.child.kill('SIGINT');
        const stopped = await run.result;
        assert.equal(stopped.code, 0, stopped.stderr);
        const savepoint = stopped.stdout.trim();
        assert.match(savepoint, /savepoints\/sp-\d+-\d+$/);
        writeJob(dir, faultJob(backend, { rate: null, name: 'sp' }), 'job.json');
        let r = await runWeir(['run', 'job.json', '--from', savepoint, '--quiet'], dir);
        assert.equal(r.code, 0, r.stderr);
        assertExact(join(dir, 'out'), reference, 'from the savepoint');
        r = await runWeir(['run', 'job.json', '--from', savepoint, '--quiet'], dir);
        assert.equal(r.code, 0, r.stderr);
        assertExact(join(dir, 'out'), reference, 'from the savepoint again, after the end');
      } finally {
        cleanup();
      }
    });
  });
}
