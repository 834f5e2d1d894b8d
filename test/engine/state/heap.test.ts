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
      create: async (range, opts = {}) =>
        new HeapStateBackend({ kind, keyGroupRange: range, storage, fileStem: `heap${n++}-${opts.subtask ?? 0}` }),
      beginCheckpoint: (id, k = 'checkpoint') =>
        storage.beginCheckpoint({ id, kind: k, timestamp: 1_700_000_000_000 + id }),
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

test('heap scan index: random puts, deletes and re-adds always scan like a sorted reference', async () => {
  const b = new HeapStateBackend({ kind: 'memory', keyGroupRange: { start: 0, end: 127 } });
  const t = b.table<number>('t');
  const ref = new Map<string, number>();
  let seed = 1;
  const rnd = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  for (let round = 0; round < 200; round++) {
    const writes: Array<[string, number | undefined]> = [];
    for (let i = 0; i < 20; i++) {
      const k = sk(`k${rnd(60)}`);
      const v = rnd(3) === 0 ? undefined : round * 100 + i;
      writes.push([k, v]);
      if (v === undefined) ref.delete(k);
      else ref.set(k, v);
    }
    await t.writeMany(writes);
    const lo = sk(`k${rnd(60)}`);
    const expected = [...ref.entries()].filter(([k]) => k >= lo).sort(([a], [c]) => (a < c ? -1 : a > c ? 1 : 0));
    const actual: Array<[string, number]> = [];
    for await (const e of t.scan({ gte: lo })) actual.push(e);
    assert.deepEqual(actual, expected, `round ${round}`);
  }
});
