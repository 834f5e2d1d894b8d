/**
 * Snapshots are backend-neutral: a job can change `settings.stateBackend` between runs and restore
 * (heap memory inline -> RocksDB, heap fs file -> RocksDB, RocksDB full or incremental -> heap).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { HeapStateBackend } from '../../../engine/state/heap.ts';
import type { KeyedStateBackend } from '../../../engine/contracts/keyed-state.ts';
import { dump, sk } from './conformance.ts';
import { rocksHarness, type RocksHarness } from './rocksdb-harness.ts';

const FULL = { start: 0, end: 127 };

async function fill(b: KeyedStateBackend): Promise<void> {
  await b
    .table<unknown>('w')
    .writeMany(Array.from({ length: 300 }, (_, i) => [sk(`k${i}`), { i, s: `v${i}` }] as const));
  await b.table<unknown>('t').writeMany([
    [sk('timer'), [1, 2, 3]],
    [sk('gone'), 1],
    [sk('gone'), undefined],
  ]);
}

describe('restoring a snapshot of one state backend into another', () => {
  let h: RocksHarness;
  let id = 0;
  const open: KeyedStateBackend[] = [];
  before(async () => {
    h = await rocksHarness(true);
  });
  after(async () => {
    for (const b of open) await b.dispose();
    await h.cleanup();
  });
  const rocks = async () => {
    const b = await h.create(FULL);
    open.push(b);
    return b;
  };
  const heap = (kind: 'memory' | 'fs') => {
    const b = new HeapStateBackend({ kind, keyGroupRange: FULL, storage: h.storage, fileStem: `heap${id}` });
    open.push(b);
    return b;
  };
  const snap = async (b: KeyedStateBackend) => {
    id++;
    h.beginCheckpoint!(id);
    return b.snapshot(id)();
  };

  for (const kind of ['memory', 'fs'] as const) {
    it(`heap (${kind}) -> RocksDB`, async () => {
      const from = heap(kind);
      await fill(from);
      const to = await rocks();
      await to.restore([await snap(from)], FULL);
      assert.deepEqual(await dump(to, ['w', 't']), await dump(from, ['w', 't']));
    });
  }

  it('RocksDB incremental chain -> heap', async () => {
    const from = await rocks();
    await fill(from);
    await snap(from);
    await from.table<unknown>('w').writeMany([
      [sk('k1'), 'changed'],
      [sk('k2'), undefined],
    ]);
    const s = await snap(from);
    assert.equal(s.files!.length, 2);
    const to = heap('fs');
    await to.restore([s], FULL);
    assert.deepEqual(await dump(to, ['w', 't']), await dump(from, ['w', 't']));
  });
});
