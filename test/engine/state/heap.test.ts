/** HeapStateBackend (memory: inline snapshots; fs: state files) against the shared conformance suite. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FsCheckpointWorkerStorage } from '../../../engine/checkpoint/fs-worker-storage.ts';
import { HeapStateBackend } from '../../../engine/state/heap.ts';
import { stateBackendConformance, sk } from './conformance.ts';

for (const kind of ['memory', 'fs'] as const) {
  stateBackendConformance(`heap (${kind})`, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'weir-heap-test-'));
    const storage = new FsCheckpointWorkerStorage(join(dir, 'checkpoints', 'job'));
    let n = 0;
    return {
      create: async (range, opts = {}) => new HeapStateBackend({ kind, keyGroupRange: range, storage, fileStem: `heap${n++}-${opts.subtask ?? 0}` }),
      beginCheckpoint: (id, k = 'checkpoint') => storage.beginCheckpoint({ id, kind: k, timestamp: 1_700_000_000_000 + id }),
      cleanup: () => rm(dir, { recursive: true, force: true }),
    };
  });
}

test('heap snapshot: the synchronous part is a deep copy, later in-place mutation does not leak into it', async () => {
  const b = new HeapStateBackend({ kind: 'memory', keyGroupRange: { start: 0, end: 127 } });
  const t = b.table<{ n: number }>('t');
  await t.writeMany([[sk('a'), { n: 1 }]]);
  const asyncPart = b.snapshot(1);
  const [v] = await t.getMany([sk('a')]);
  v!.n = 99; // an operator mutating what it read
  await t.writeMany([[sk('b'), { n: 2 }]]);
  const snap = await asyncPart();
  const restored = new HeapStateBackend({ kind: 'memory', keyGroupRange: { start: 0, end: 127 } });
  await restored.restore([snap], { start: 0, end: 127 });
  assert.deepEqual(await restored.table('t').getMany([sk('a'), sk('b')]), [{ n: 1 }, undefined]);
});
