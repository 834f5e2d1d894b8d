/**
 * Issue 23, "nothing is ever left behind" and "exact or refused", for a file sink restored in two
 * directions. A run is killed after six checkpoints (the retained ones set aside). `--from` the
 * oldest rolls back the files of every later checkpoint and runs to the end, committing the same
 * records under its own, higher checkpoint ids. Restoring one of the first run's later checkpoints
 * after that would keep nothing of what lies between (the first run's files were rolled back and
 * the second run's are all "after" it): it must be refused with nothing changed. Restoring the
 * oldest again, or the second run's own checkpoints, stays exact.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runWeir, startWeir, tempDir, writeJob } from '../support/run-helpers.ts';
import {
  assertExact,
  assertUnchanged,
  completedCheckpoints,
  copyDir,
  faultJob,
  faultReference,
  killRun,
  snapshotFolder,
  waitForCheckpoint,
} from './fault-job.ts';

const reference = faultReference();

describe('faults: a file sink restored forward after a rollback (issue 23)', () => {
  let dir: string;
  let cleanup: () => void;
  let kept: number[];

  before(async () => {
    ({ dir, cleanup } = tempDir('faults-hole'));
    writeJob(dir, faultJob('fs', { rate: 800, name: 'hole', retained: 4 }), 'job.json');
    const run = startWeir(['run', 'job.json', '--quiet'], dir);
    await waitForCheckpoint(join(dir, 'checkpoints', 'hole'), 6);
    await killRun(run);
    writeJob(dir, faultJob('fs', { rate: null, name: 'hole', retained: 4 }), 'job.json');
    kept = completedCheckpoints(join(dir, 'checkpoints', 'hole'));
    assert.ok(kept.length >= 3, `at least three checkpoints retained: ${kept}`);
    copyDir(join(dir, 'checkpoints', 'hole'), join(dir, 'kept'));
  });
  after(() => cleanup?.());

  it('--from the oldest rolls back the later files and is exact', async () => {
    const r = await runWeir(['run', 'job.json', '--from', join('kept', `chk-${kept[0]}`)], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /rolled back \d+ file\(s\) committed after checkpoint/);
    assertExact(join(dir, 'out'), reference, `--from chk-${kept[0]}`);
  });

  it("then --from one of the first run's later checkpoints is refused, nothing changed", async () => {
    const newest = kept[kept.length - 1];
    const before = snapshotFolder(join(dir, 'out'));
    const r = await runWeir(['run', 'job.json', '--from', join('kept', `chk-${newest}`)], dir);
    assert.notEqual(r.code, 0, `refused: ${r.stderr}`);
    assert.match(
      r.stderr,
      new RegExp(
        `cannot restore checkpoint ${newest} exactly: sink 'out': the files of checkpoint\\(s\\) [\\d, ]+, which checkpoint ${newest} counts as written, were rolled back`,
      ),
    );
    assert.match(r.stderr, /Nothing was changed/);
    assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
    assertUnchanged(before, snapshotFolder(join(dir, 'out')), 'refused restore');
    assertExact(join(dir, 'out'), reference, 'after the refusal');
  });

  it('--from the oldest again is still exact', async () => {
    const r = await runWeir(['run', 'job.json', '--from', join('kept', `chk-${kept[0]}`)], dir);
    assert.equal(r.code, 0, r.stderr);
    assertExact(join(dir, 'out'), reference, `--from chk-${kept[0]} again`);
  });
});
