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
type Damage = 'truncate' | 'bitflip' | 'delete';

function damage(path: string, how: Damage): void {
  if (how === 'delete') {
    rmSync(path);
    return;
  }
  const bytes = readFileSync(path);
  // An empty file can be neither shortened nor flipped: growing it is the damage then.
  if (bytes.length === 0) {
    writeFileSync(path, 'x');
    return;
  }
  if (how === 'truncate') {
    truncateSync(path, Math.floor(bytes.length / 2));
    return;
  }
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
    let stateFiles: string[];

    before(async () => {
      ({ dir: crashed, cleanup: cleanupCrashed } = tempDir(`faults-damage-${backend}`));
      writeJob(crashed, faultJob(backend, { rate: 800, name: 'dmg' }), 'job.json');
      const run = startWeir(['run', 'job.json', '--quiet'], crashed);
      const root = join(crashed, 'checkpoints', 'dmg');
      await waitForCheckpoint(root, 4);
      await killRun(run);
      // Resumes need no pacing: same records, same checkpoints to restore, a faster suite.
      writeJob(crashed, faultJob(backend, { rate: null, name: 'dmg' }), 'job.json');
      const ids = completedCheckpoints(root);
      assert.ok(ids.length >= 2, `at least two checkpoints retained: ${ids}`);
      newest = ids.at(-1)!;
      const meta = JSON.parse(readFileSync(join(root, `chk-${newest}`, '_metadata'), 'utf8'));
      const files: string[] = meta.states.flatMap(
        (s: { keyed?: { files?: Array<{ path: string }> } }) => s.keyed?.files?.map((f) => f.path) ?? [],
      );
      assert.ok(files.length > 0, 'the window keeps keyed state in files');
      stateFiles = [...new Set(files)];
    });
    after(() => cleanupCrashed());

    // _metadata, then every state file of the newest checkpoint, each with every damage.
    for (const target of ['_metadata', 'every state file'] as const) {
      for (const how of ['truncate', 'bitflip', 'delete'] as const) {
        it(`${target} of the newest checkpoint ${how}d: --resume reports it and is exact, or refuses changing nothing`, async () => {
          const rels = target === '_metadata' ? [`chk-${newest}/_metadata`] : stateFiles;
          for (const rel of rels) {
            const { dir, cleanup } = tempDir(`faults-${backend}-${how}`);
            try {
              copyDir(crashed, dir);
              damage(join(dir, 'checkpoints', 'dmg', rel), how);
              const before = snapshotFolder(join(dir, 'out'));
              const r = await runWeir(['run', 'job.json', '--resume'], dir);
              assert.match(
                r.stderr,
                new RegExp(`checkpoint ${newest}\\b.*(unusable|corrupt|missing)`),
                `${rel}: the damaged checkpoint is reported: ${r.stderr}`,
              );
              if (process.env.WEIR_FAULTS_VERBOSE) console.log(`# ${backend} ${rel} ${how}: exit ${r.code}`);
              if (r.code === 0) {
                assertExact(join(dir, 'out'), reference, `${backend} ${rel} ${how}`);
              } else {
                assert.match(r.stderr, /Nothing was changed/);
                assertUnchanged(before, snapshotFolder(join(dir, 'out')), `${backend} ${rel} ${how}`);
              }
            } finally {
              cleanup();
            }
          }
        });
      }
    }
  });
}

describe('faults: damaged savepoint (memory backend, whose savepoints are its only files)', () => {
  it("a bit flipped in a memory savepoint's _metadata: --from refuses naming the file, output unchanged", async () => {
    const { dir, cleanup } = tempDir('faults-memory-sp');
    try {
      writeJob(dir, faultJob('memory', { rate: 800, name: 'msp' }), 'job.json');
      const run = startWeir(['run', 'job.json'], dir);
      const started = Date.now();
      // Wait for committed output (memory checkpoints leave no files to watch).
      while (snapshotFolder(join(dir, 'out')).size < 3) {
        assert.ok(Date.now() - started < 30_000, 'the memory run commits output');
        await new Promise((r) => setTimeout(r, 10));
      }
      run.child.kill('SIGINT');
      const stopped = await run.result;
      assert.equal(stopped.code, 0, stopped.stderr);
      const savepoint = stopped.stdout.trim();
      const meta = join(savepoint, '_metadata');
      damage(meta, 'bitflip');
      const before = snapshotFolder(join(dir, 'out'));
      const r = await runWeir(['run', 'job.json', '--from', savepoint], dir);
      assert.notEqual(r.code, 0);
      assert.ok(r.stderr.includes(meta), `names ${meta}: ${r.stderr}`);
      assert.match(r.stderr, /corrupt/);
      assertUnchanged(before, snapshotFolder(join(dir, 'out')), 'memory savepoint');
    } finally {
      cleanup();
    }
  });
});
