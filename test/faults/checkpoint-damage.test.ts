/**
 * Issue 11, items 2 and 3: every file of the newest checkpoint truncated, bit-flipped or deleted
 * after a crash, on the fs and rocksdb backends. `--resume` must report the damaged checkpoint by
 * name and then either finish with committed output equal to the reference (the fallback to an
 * older checkpoint rolls back what was committed after it) or refuse without touching the output.
 * The memory backend keeps no checkpoint files (its checkpoints die with the host; see README).
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runWeir, startWeir, tempDir, writeJob } from '../engine/runtime/run-helpers.ts';
import {
  assertExact, assertUnchanged, completedCheckpoints, copyDir, faultJob, faultReference, snapshotFolder, waitForCheckpoint,
} from './fault-job.ts';

const reference = faultReference();
type Damage = 'truncate' | 'bitflip' | 'delete';

function damage(path: string, how: Damage): void {
  if (how === 'delete') { rmSync(path); return; }
  const bytes = readFileSync(path);
  if (how === 'truncate') { truncateSync(path, Math.floor(bytes.length / 2)); return; }
  // One flipped bit in the middle: in _metadata that is a digit of an offset or a hash, in a state file a value.
  const at = Math.floor(bytes.length / 2);
  bytes[at] ^= 0x01;
  writeFileSync(path, bytes);
}

for (const backend of ['fs', 'rocksdb'] as const) {
  describe(`faults: damaged checkpoint files (${backend})`, () => {
    let crashed: string;
    let cleanupCrashed: () => void;
    let newest: number;
    let targets: string[];

    before(async () => {
      ({ dir: crashed, cleanup: cleanupCrashed } = tempDir(`faults-damage-${backend}`));
      writeJob(crashed, faultJob(backend, { rate: 800, name: 'dmg' }), 'job.json');
      const run = startWeir(['run', 'job.json', '--quiet'], crashed);
      const root = join(crashed, 'checkpoints', 'dmg');
      await waitForCheckpoint(root, 4);
      run.child.kill('SIGKILL');
      await run.result;
      const ids = completedCheckpoints(root);
      assert.ok(ids.length >= 2, `at least two checkpoints retained: ${ids}`);
      newest = ids.at(-1)!;
      const meta = JSON.parse(readFileSync(join(root, `chk-${newest}`, '_metadata'), 'utf8'));
      const files: string[] = meta.states.flatMap((s: { keyed?: { files?: Array<{ path: string }> } }) => s.keyed?.files?.map((f) => f.path) ?? []);
      assert.ok(files.length > 0, 'the window keeps keyed state in files');
      targets = [`chk-${newest}/_metadata`, files[0]];
    });
    after(() => cleanupCrashed());

    for (const target of ['_metadata', 'state file'] as const) {
      for (const how of ['truncate', 'bitflip', 'delete'] as const) {
        it(`${target} of the newest checkpoint ${how}d: --resume reports it and is exact, or refuses changing nothing`, async () => {
          const { dir, cleanup } = tempDir(`faults-${backend}-${how}`);
          try {
            copyDir(crashed, dir);
            const rel = target === '_metadata' ? targets[0] : targets[1];
            damage(join(dir, 'checkpoints', 'dmg', rel), how);
            const before = snapshotFolder(join(dir, 'out'));
            const r = await runWeir(['run', 'job.json', '--resume'], dir);
            assert.match(r.stderr, new RegExp(`checkpoint ${newest}\\b.*(unusable|corrupt|missing)`), `the damaged checkpoint is reported: ${r.stderr}`);
            if (process.env.WEIR_FAULTS_VERBOSE) console.log(`# ${backend} ${target} ${how}: exit ${r.code}`);
            if (r.code === 0) {
              assertExact(join(dir, 'out'), reference, `${backend} ${target} ${how}`);
            } else {
              assert.match(r.stderr, /Nothing was changed/);
              assertUnchanged(before, snapshotFolder(join(dir, 'out')), `${backend} ${target} ${how}`);
            }
          } finally { cleanup(); }
        });
      }
    }
  });
}
