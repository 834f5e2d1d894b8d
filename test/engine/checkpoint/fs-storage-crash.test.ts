/**
 * SIGKILL a process that is taking incremental RocksDB checkpoints into filesystem storage, at
 * random moments, several times: every checkpoint that `_metadata` says is complete must load with
 * valid checksums and restore to exactly the state it captured; a restarted writer continues.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fork } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FsCheckpointStorage } from '../../../engine/checkpoint/fs-storage.ts';
import { FsCheckpointWorkerStorage } from '../../../engine/checkpoint/fs-worker-storage.ts';
import { createRocksDBStateBackend } from '../../../engine/state/rocksdb-backend.ts';
import { expectedAfterRounds } from './fixtures/crash-model.ts';
import { collect } from '../state/conformance.ts';

const CHILD = fileURLToPath(new URL('./fixtures/checkpointing-child.ts', import.meta.url));

function runAndKill(dir: string, killAfterMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = fork(CHILD, [dir], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    let stderr = '';
    child.stderr?.on('data', (d) => {
      stderr += d;
    });
    let timer: NodeJS.Timeout | undefined;
    child.on('message', () => {
      timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (signal === 'SIGKILL') resolve();
      else reject(new Error(`child exited with ${code}: ${stderr}`));
    });
  });
}

describe('filesystem storage survives SIGKILL', () => {
  let dir: string;
  after(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('every completed checkpoint restores exactly after random kills', async () => {
    dir = await mkdtemp(join(tmpdir(), 'weir-crash-'));
    const root = join(dir, 'checkpoints', 'crashjob');
    let seed = 12345;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let kill = 0; kill < 4; kill++) {
      await runAndKill(dir, 50 + Math.floor(random() * 400));
      const storage = new FsCheckpointStorage(root, 'crashjob');
      await storage.open();
      const listed = await storage.listRetained();
      assert.ok(listed.length >= 1, 'at least the first checkpoint completed');
      for (const r of listed) {
        const cp = await storage.load(r.path); // verifies every checksum
        const backend = await createRocksDBStateBackend({
          storage: new FsCheckpointWorkerStorage(root),
          operatorId: 'verify',
          subtask: 0,
          keyGroupRange: { start: 0, end: 127 },
          workDir: join(dir, 'verify'),
        });
        try {
          await backend.restore(
            cp.states.map((s) => s.keyed!),
            { start: 0, end: 127 },
          );
          assert.deepEqual(
            await collect(backend.table<number>('w').scan()),
            expectedAfterRounds(cp.id),
            `checkpoint ${cp.id}`,
          );
        } finally {
          await backend.dispose();
        }
      }
      // The writer starts over (from scratch: ids restart, as a new run without --resume would);
      // clear the folder so the deterministic history matches the ids.
      await rm(root, { recursive: true, force: true });
    }
  });
});
