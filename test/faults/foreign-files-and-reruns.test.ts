/**
 * Issue 11, items 4 and 6 through the real CLI: Weir deletes only what it wrote, and a re-run never
 * silently duplicates. A checkpoint folder holding foreign files (or another job's, or no marker) is
 * refused and left as it was; a fresh run into committed output is refused with the options
 * spelled out; `--clear-output` removes only this job's committed files and is itself refused when
 * foreign files are there.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runWeir, startWeir, tempDir, writeJob } from '../support/run-helpers.ts';
import {
  assertExact,
  assertUnchanged,
  faultJob,
  faultReference,
  snapshotFolder,
  waitForCheckpoint,
  killRun,
} from './fault-job.ts';

const reference = faultReference();

describe('faults: Weir deletes only what it wrote', () => {
  it('a checkpoint folder with a foreign file is refused and nothing in it is deleted', async () => {
    const { dir, cleanup } = tempDir('faults-foreign');
    try {
      writeJob(dir, faultJob('fs', { rate: 4000 }), 'job.json');
      let r = await runWeir(['run', 'job.json', '--quiet'], dir);
      assert.equal(r.code, 0, r.stderr);
      const root = join(dir, 'checkpoints', 'faults-fs');
      writeFileSync(join(root, 'notes.txt'), 'mine');
      mkdirSync(join(root, 'chk-999')); // looks like an incomplete checkpoint, but holds a folder Weir never writes
      mkdirSync(join(root, 'chk-999', 'photos'));
      const before = snapshotFolder(dir);
      r = await runWeir(['run', 'job.json', '--resume'], dir);
      assert.notEqual(r.code, 0);
      assert.match(r.stderr, /holds files Weir did not write: notes\.txt\. Nothing was changed/);
      assertUnchanged(before, snapshotFolder(dir), 'foreign file');
      assert.ok(existsSync(join(root, 'chk-999', 'photos')));
    } finally {
      cleanup();
    }
  });

  it("a non-empty checkpoint folder without Weir's marker is refused and left alone", async () => {
    const { dir, cleanup } = tempDir('faults-nomarker');
    try {
      const doc = faultJob('fs', { rate: 4000 });
      doc.settings.checkpointing.dir = 'precious';
      writeJob(dir, doc, 'job.json');
      // Someone's folder that happens to be named like a job root, with a chk-1 and a shared/ file.
      mkdirSync(join(dir, 'precious', 'faults-fs', 'chk-1'), { recursive: true });
      mkdirSync(join(dir, 'precious', 'faults-fs', 'shared'), { recursive: true });
      writeFileSync(join(dir, 'precious', 'faults-fs', 'shared', 'thesis.tex'), 'years of work');
      const before = snapshotFolder(join(dir, 'precious'));
      const r = await runWeir(['run', 'job.json'], dir);
      assert.notEqual(r.code, 0);
      assert.match(r.stderr, /holds files Weir did not write \(chk-1, shared\) and no \.weir-checkpoints\.json marker/);
      assertUnchanged(before, snapshotFolder(join(dir, 'precious')), 'no marker');
    } finally {
      cleanup();
    }
  });
});

describe('faults: re-runs never silently duplicate', () => {
  it('a fresh run after a finished one is refused with the options; --clear-output gives exactly one copy', async () => {
    const { dir, cleanup } = tempDir('faults-rerun');
    try {
      writeJob(dir, faultJob('rocksdb', { rate: 4000 }), 'job.json');
      let r = await runWeir(['run', 'job.json', '--quiet'], dir);
      assert.equal(r.code, 0, r.stderr);
      const before = snapshotFolder(join(dir, 'out'));
      r = await runWeir(['run', 'job.json', '--quiet'], dir);
      assert.equal(r.code, 1);
      assert.match(
        r.stderr,
        /already holds committed output .* Nothing was changed\. Choose one: --resume .*--clear-output .*another sink path/,
      );
      assertUnchanged(before, snapshotFolder(join(dir, 'out')), 'refused re-run');
      r = await runWeir(['run', 'job.json', '--quiet', '--clear-output'], dir);
      assert.equal(r.code, 0, r.stderr);
      assertExact(join(dir, 'out'), reference, 'after --clear-output');
    } finally {
      cleanup();
    }
  });

  it('a plain re-run after a crash is refused too (committed output exists); --resume completes it exactly', async () => {
    const { dir, cleanup } = tempDir('faults-rerun-crash');
    try {
      writeJob(dir, faultJob('fs', { rate: 800 }), 'job.json');
      const run = startWeir(['run', 'job.json', '--quiet'], dir);
      await waitForCheckpoint(join(dir, 'checkpoints', 'faults-fs'), 3);
      await killRun(run);
      const before = snapshotFolder(join(dir, 'out'));
      let r = await runWeir(['run', 'job.json', '--quiet'], dir);
      assert.equal(r.code, 1);
      assert.match(r.stderr, /already holds committed output/);
      assertUnchanged(before, snapshotFolder(join(dir, 'out')), 'refused re-run after a crash');
      r = await runWeir(['run', 'job.json', '--quiet', '--resume'], dir);
      assert.equal(r.code, 0, r.stderr);
      assertExact(join(dir, 'out'), reference, 'resumed');
    } finally {
      cleanup();
    }
  });

  it('--clear-output is refused when the sink folder holds files this job did not commit', async () => {
    const { dir, cleanup } = tempDir('faults-clear-foreign');
    try {
      writeJob(dir, faultJob('fs', { rate: 4000 }), 'job.json');
      let r = await runWeir(['run', 'job.json', '--quiet'], dir);
      assert.equal(r.code, 0, r.stderr);
      writeFileSync(join(dir, 'out', 'report.pdf'), 'not Weir output');
      const before = snapshotFolder(join(dir, 'out'));
      r = await runWeir(['run', 'job.json', '--quiet', '--clear-output'], dir);
      assert.equal(r.code, 1);
      assert.match(
        r.stderr,
        /--clear-output refused: .*1 file\(s\) that no earlier run of job 'faults-fs' committed \(report\.pdf\)/,
      );
      assertUnchanged(before, snapshotFolder(join(dir, 'out')), 'clear-output with a foreign file');
    } finally {
      cleanup();
    }
  });
});
