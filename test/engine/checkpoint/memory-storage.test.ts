import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryCheckpointStorage, DEFAULT_MEMORY_STATE_LIMIT } from '../../../engine/checkpoint/memory-storage.ts';
import { CheckpointDeclinedError } from '../../../engine/contracts/checkpoint-storage.ts';
import { createCheckpointStorage, createWorkerStorage } from '../../../engine/checkpoint/storage-factory.ts';
import { DEFAULT_SETTINGS } from '../../../engine/graph/types.ts';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const state = (inline: unknown) => ({
  operatorId: 'agg',
  subtask: 3,
  parallelism: 4,
  keyed: {
    backend: 'memory' as const,
    keyGroupRange: { start: 0, end: 31 },
    inline,
    checkpointedBytes: 0,
    fullBytes: 0,
  },
});

describe('MemoryCheckpointStorage', () => {
  it('defaults to a 5 MB limit per operator subtask snapshot', () => {
    assert.equal(DEFAULT_MEMORY_STATE_LIMIT, 5 * 1024 * 1024);
    const s = new MemoryCheckpointStorage('job');
    s.checkSubtaskState(state({ tables: { t: [['0000:k', 'x'.repeat(5 * 1024 * 1024 - 100)]] } }));
    assert.throws(
      () => s.checkSubtaskState(state({ tables: { t: [['0000:k', 'x'.repeat(5 * 1024 * 1024)]] } })),
      (err: Error) =>
        err instanceof CheckpointDeclinedError &&
        /operator 'agg' subtask 3 is 524\d{4} bytes \(5\.00 MB\), over the memory state backend's limit of 5242880 bytes \(5\.00 MB/.test(
          err.message,
        ) &&
        /Use stateBackend 'fs' or 'rocksdb'/.test(err.message),
    );
  });

  it('keeps completed checkpoints in memory, newest first, and forgets subsumed ones', async () => {
    const s = new MemoryCheckpointStorage('job');
    const a = await s.store({
      id: 1,
      kind: 'checkpoint',
      triggerTime: 1,
      barrierTimestamp: 1,
      states: [state({ tables: {} })],
    });
    await s.store({ id: 2, kind: 'savepoint', triggerTime: 2, barrierTimestamp: 2, states: [] });
    assert.equal(a.location, 'memory://job/1');
    assert.deepEqual(
      (await s.listRetained()).map((r) => r.id),
      [2, 1],
    );
    assert.equal((await s.latest())?.id, 2);
    assert.equal((await s.load('memory://job/1')).id, 1);
    await s.discard(a);
    await s.discard((await s.latest())!); // savepoints are never discarded
    assert.deepEqual(
      (await s.listRetained()).map((r) => r.id),
      [2],
    );
  });

  it('after the host process died there is nothing, and the error says why', async () => {
    const fresh = new MemoryCheckpointStorage('orders');
    const why =
      /no checkpoint of job 'orders' is available: the memory state backend keeps checkpoints only in the memory of the host process/;
    await assert.rejects(fresh.listRetained(), why);
    await assert.rejects(fresh.resumeLatest(), why);
    assert.equal(await fresh.latest(), null);
    await assert.rejects(fresh.load('memory://orders/4'), why);
    await assert.rejects(fresh.load('/some/chk-4'), /checkpoint \/some\/chk-4 does not exist/);
  });

  it('writes savepoints to disk with their inline state, so they survive the host and restore with --from', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'weir-mem-sp-'));
    try {
      const s = new MemoryCheckpointStorage('orders', 1000, { savepointRoot: dir });
      const inline = { tables: { w: [['0001:k', 5]] } };
      const sp = await s.store({
        id: 4,
        kind: 'savepoint',
        triggerTime: 1,
        barrierTimestamp: 1234,
        states: [state(inline)],
      });
      assert.equal(sp.location, join(dir, 'savepoints', 'sp-4-1234'));
      const cp = await s.store({
        id: 5,
        kind: 'checkpoint',
        triggerTime: 1,
        barrierTimestamp: 1,
        states: [state(inline)],
      });
      assert.equal(cp.location, 'memory://orders/5');
      // The host died: a fresh storage has no checkpoints, but the savepoint loads from its path.
      const fresh = new MemoryCheckpointStorage('orders', 1000, { savepointRoot: dir });
      await assert.rejects(
        fresh.resumeLatest(),
        new RegExp(`or restore a savepoint from ${join(dir, 'savepoints')} with --from PATH`),
      );
      assert.deepEqual(
        (await fresh.listRetained()).map((r) => [r.id, r.kind, r.path]),
        [[4, 'savepoint', sp.location]],
      );
      const loaded = await fresh.load(sp.location);
      assert.equal(loaded.id, 4);
      assert.equal(loaded.kind, 'savepoint');
      assert.deepEqual(loaded.states[0].keyed?.inline, inline);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('the factory picks memory storage for the memory backend and filesystem storage otherwise', () => {
    const memory = createCheckpointStorage({ jobName: 'j', settings: DEFAULT_SETTINGS });
    assert.equal(memory.kind, 'memory');
    assert.equal(createWorkerStorage({ jobName: 'j', settings: DEFAULT_SETTINGS }).kind, 'memory');
    const fs = createCheckpointStorage({
      jobName: 'j',
      settings: { ...DEFAULT_SETTINGS, stateBackend: 'rocksdb' },
      baseDir: '/data/jobs',
    });
    assert.equal(fs.kind, 'filesystem');
    assert.equal((fs as unknown as { root: string }).root, '/data/jobs/checkpoints/j');
  });
});
