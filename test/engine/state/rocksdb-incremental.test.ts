import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { KeyedStateSnapshot } from '../../../engine/contracts/keyed-state.ts';
import { checkEntrySize, MAX_ENTRY_PART_BYTES, StateEntryTooLargeError } from '../../../engine/state/entry-limits.ts';
import type { RocksDBStateBackend } from '../../../engine/state/rocksdb-backend.ts';
import { dump, sk } from './conformance.ts';
import { rocksHarness, type RocksHarness } from './rocksdb-harness.ts';

const FULL = { start: 0, end: 127 };

describe('RocksDB incremental checkpoints', () => {
  let h: RocksHarness;
  const open: RocksDBStateBackend[] = [];
  let id = 0;
  const fresh = async (maxDeltaChain?: number) => {
    const b = await h.create(FULL, { maxDeltaChain });
    open.push(b);
    return b;
  };
  const snap = async (
    b: RocksDBStateBackend,
    kind: 'checkpoint' | 'savepoint' = 'checkpoint',
  ): Promise<KeyedStateSnapshot> => {
    id++;
    h.beginCheckpoint!(id, kind);
    return b.snapshot(id)();
  };
  before(async () => {
    h = await rocksHarness(true);
  });
  after(async () => {
    for (const b of open) await b.dispose();
    await h.cleanup();
  });

  it('a checkpoint after 1% of N keys changed writes a small fraction of the first one', async () => {
    const b = await fresh();
    const t = b.table<{ n: number; name: string }>('counts');
    const N = 20_000;
    for (let i = 0; i < N; i += 2000) {
      await t.writeMany(
        Array.from(
          { length: 2000 },
          (_, j) => [sk(`key-${i + j}`), { n: i + j, name: `customer number ${i + j}` }] as const,
        ),
      );
    }
    const first = await snap(b);
    // 1%: 100 updates, 50 deletes, 50 inserts.
    const changes: Array<readonly [string, { n: number; name: string } | undefined]> = [];
    for (let i = 0; i < 100; i++) changes.push([sk(`key-${i * 97}`), { n: -i, name: 'updated' }]);
    for (let i = 0; i < 50; i++) changes.push([sk(`key-${i * 101 + 7}`), undefined]);
    for (let i = 0; i < 50; i++) changes.push([sk(`new-${i}`), { n: i, name: 'inserted' }]);
    await t.writeMany(changes);
    const second = await snap(b);
    const ratio = second.checkpointedBytes / first.checkpointedBytes;
    assert.ok(
      ratio < 0.03,
      `second checkpoint wrote ${second.checkpointedBytes} of ${first.checkpointedBytes} bytes (${ratio})`,
    );
    assert.equal(second.files!.length, 2);
    assert.deepEqual(second.files![0], first.files![0], 'the delta references the base');
    assert.ok(second.files!.every((f) => f.shared));
    assert.equal(second.fullBytes, first.checkpointedBytes + second.checkpointedBytes);
    // Restoring base + delta gives exactly the full state.
    const r = await fresh();
    await r.restore([second], FULL);
    assert.deepEqual(await dump(r, ['counts']), await dump(b, ['counts']));
  });

  it('restoring any checkpoint of a long chain gives exactly its state; chains are bounded', async () => {
    const b = await fresh(3);
    const t = b.table<number>('t');
    const u = b.table<string>('u');
    const taken: Array<{ snap: KeyedStateSnapshot; state: Awaited<ReturnType<typeof dump>> }> = [];
    for (let round = 0; round < 10; round++) {
      const writes: Array<readonly [string, number | undefined]> = [];
      for (let i = 0; i < 1000; i++) {
        if (round === 0) writes.push([sk(`k${i}`), i]);
        else if ((i * 31 + round * 7) % 97 === 0) writes.push([sk(`k${i}`), undefined]);
        else if ((i * 17 + round) % 89 === 0) writes.push([sk(`k${i}`), round * 10_000 + i]);
      }
      // The same key changed several times between checkpoints: only the last value counts.
      writes.push([sk('hot'), round], [sk('hot'), round + 0.5]);
      await t.writeMany(writes);
      await u.writeMany([
        [sk(`r${round}`), `round ${round}`],
        [sk(`r${round - 1}`), undefined],
      ]);
      taken.push({ snap: await snap(b), state: await dump(b, ['t', 'u']) });
    }
    const chainLengths = taken.map((x) => x.snap.files!.length);
    assert.ok(Math.max(...chainLengths) <= 4, `chains ${chainLengths}`);
    assert.ok(
      chainLengths.includes(1) && chainLengths.lastIndexOf(1) > 0,
      `a fresh base was written again: ${chainLengths}`,
    );
    for (const [i, x] of taken.entries()) {
      const r = await fresh();
      await r.restore([x.snap], FULL);
      assert.deepEqual(await dump(r, ['t', 'u']), x.state, `checkpoint ${i}`);
    }
  });

  it('writes a full base when most keys changed, and savepoints are full, exclusive and leave the chain alone', async () => {
    const b = await fresh();
    const t = b.table<number>('t');
    await t.writeMany(Array.from({ length: 1000 }, (_, i) => [sk(`k${i}`), i] as const));
    const s1 = await snap(b);
    await t.writeMany(Array.from({ length: 600 }, (_, i) => [sk(`k${i}`), -i] as const));
    const s2 = await snap(b);
    assert.equal(s2.files!.length, 1, 'a new base instead of a delta rewriting 60% of the keys');
    assert.notEqual(s2.files![0].path, s1.files![0].path);
    await t.writeMany([[sk('k1'), 111]]);
    const sp = await snap(b, 'savepoint');
    assert.equal(sp.files!.length, 1);
    assert.equal(sp.files![0].shared, false);
    assert.match(sp.files![0].path, /^savepoints\/sp-\d+-\d+\//);
    await t.writeMany([[sk('k2'), 222]]);
    const s3 = await snap(b);
    assert.deepEqual(s3.files!.slice(0, 1), s2.files, 'the checkpoint after the savepoint continues the chain');
    const r = await fresh();
    await r.restore([s3], FULL);
    assert.deepEqual(await r.table('t').getMany([sk('k1'), sk('k2'), sk('k700')]), [111, 222, 700]);
  });

  it('bounds the remembered changes: past maxTrackedChanges the next checkpoint is a fresh base', async () => {
    const b = await h.create(FULL, { maxTrackedChanges: 300 });
    open.push(b);
    const t = b.table<number>('t');
    await t.writeMany(Array.from({ length: 2000 }, (_, i) => [sk(`k${i}`), i] as const));
    const s1 = await snap(b);
    await t.writeMany(Array.from({ length: 200 }, (_, i) => [sk(`k${i}`), -i] as const));
    const s2 = await snap(b);
    assert.equal(s2.files!.length, 2, '200 changes are remembered: a delta');
    await t.writeMany(Array.from({ length: 400 }, (_, i) => [sk(`k${i + 1000}`), -i] as const));
    const s3 = await snap(b);
    assert.equal(s3.files!.length, 1, '400 changes overflow the 300 remembered: a base');
    assert.notEqual(s3.files![0].path, s1.files![0].path);
    const r = await fresh();
    await r.restore([s3], FULL);
    assert.deepEqual(await dump(r, ['t']), await dump(b, ['t']));
  });

  it('after a restore the next checkpoint is a fresh base owned by the new run', async () => {
    const a = await fresh();
    await a.table<number>('t').writeMany([[sk('x'), 1]]);
    await snap(a);
    await a.table<number>('t').writeMany([[sk('y'), 2]]);
    const s = await snap(a);
    const b = await fresh();
    await b.restore([s], FULL);
    await b.table<number>('t').writeMany([[sk('z'), 3]]);
    const next = await snap(b);
    assert.equal(next.files!.length, 1);
    assert.ok(!s.files!.some((f) => f.path === next.files![0].path));
  });

  it('a failed snapshot write makes the next checkpoint a full base', async () => {
    const b = await fresh();
    const t = b.table<number>('t');
    await t.writeMany(Array.from({ length: 100 }, (_, i) => [sk(`k${i}`), i] as const));
    const s1 = await snap(b);
    await t.writeMany([[sk('k1'), -1]]);
    id++;
    // No beginCheckpoint and a storage that refuses: the write fails.
    const original = h.storage.createStateFile.bind(h.storage);
    h.storage.createStateFile = async () => {
      throw new Error('ENOSPC: no space left on device');
    };
    await assert.rejects(b.snapshot(id)(), /ENOSPC/);
    h.storage.createStateFile = original;
    await t.writeMany([[sk('k2'), -2]]);
    const s3 = await snap(b);
    assert.equal(s3.files!.length, 1, 'the changes of the failed checkpoint are not lost: full base');
    assert.notEqual(s3.files![0].path, s1.files![0].path);
    const r = await fresh();
    await r.restore([s3], FULL);
    assert.deepEqual(await r.table('t').getMany([sk('k1'), sk('k2'), sk('k3')]), [-1, -2, 3]);
  });

  it('state files live under the storage root: shared/ for chains', async () => {
    const names = await readdir(join(h.storage.root, 'shared'));
    assert.ok(names.some((n) => n.includes('-base-')) && names.some((n) => n.includes('-delta-')));
  });
});

describe('RocksDB backend limits and size', () => {
  it('keys and values over 2^31-1 bytes fail with a clear error (checked on lengths, nothing allocated)', () => {
    assert.equal(MAX_ENTRY_PART_BYTES, 2147483647);
    checkEntrySize('windows', 'k', 10, MAX_ENTRY_PART_BYTES);
    assert.throws(
      () => checkEntrySize('windows', 'user-1', 10, MAX_ENTRY_PART_BYTES + 1),
      (err: Error) =>
        err instanceof StateEntryTooLargeError &&
        /state table 'windows': the value for key 'user-1' is 2147483648 bytes \(2048\.0 MB\); RocksDB values are limited to 2147483647 bytes/.test(
          err.message,
        ),
    );
    assert.throws(
      () => checkEntrySize('windows', 'x'.repeat(100), MAX_ENTRY_PART_BYTES + 1, 1),
      /state table 'windows': key 'x{60}\.\.\.' is 2147483648 bytes .*RocksDB keys are limited to 2147483647 bytes/,
    );
  });

  it('size() reports RocksDB live data and bytes on disk; dispose removes the working folder', async () => {
    const h = await rocksHarness(false);
    const b = await h.create(FULL);
    try {
      await b.table('t').writeMany(Array.from({ length: 5000 }, (_, i) => [sk(`k${i}`), 'v'.repeat(100)] as const));
      const s = await b.size();
      assert.ok(s.liveBytes > 5000 * 100, `live ${s.liveBytes}`);
      assert.ok(s.diskBytes > 0, `disk ${s.diskBytes}`);
      assert.ok(Math.abs(s.entries - 5000) < 100, `entries ${s.entries}`);
      assert.ok((await readdir(b.location)).length > 0);
    } finally {
      await b.dispose();
      await assert.rejects(readdir(b.location));
      await h.cleanup();
    }
  });

  it('removes working folders left behind by killed processes, never those of live ones', async () => {
    const h = await rocksHarness(false);
    const work = join(h.dir, 'work');
    await mkdir(join(work, 'win-0-999999999-abcdef12'), { recursive: true });
    await writeFile(join(work, 'win-0-999999999-abcdef12', 'LOG'), 'x');
    await mkdir(join(work, `win-1-${process.ppid}-abcdef12`), { recursive: true });
    const b = await h.create(FULL);
    try {
      const names = await readdir(work);
      assert.ok(!names.includes('win-0-999999999-abcdef12'));
      assert.ok(names.includes(`win-1-${process.ppid}-abcdef12`));
    } finally {
      await b.dispose();
      await h.cleanup();
    }
  });

  it('rejects values that are not JSON and table names with U+0000', async () => {
    const h = await rocksHarness(false);
    const b = await h.create(FULL);
    try {
      await assert.rejects(b.table('t').writeMany([[sk('f'), () => 1]]), /value for key .* is not JSON-serializable/);
      assert.throws(() => b.table('a\u0000b'), /invalid state table name/);
    } finally {
      await b.dispose();
      await h.cleanup();
    }
  });
});
