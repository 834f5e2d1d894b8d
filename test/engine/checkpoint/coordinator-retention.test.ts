/**
 * The coordinator with its real collaborators on disk: filesystem storage and incremental RocksDB
 * backends of two subtasks. Retention disposes subsumed checkpoints while every retained checkpoint
 * (and every savepoint) stays restorable to exactly the state it captured.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { CheckpointCoordinator } from '../../../engine/checkpoint/coordinator.ts';
import { FsCheckpointStorage } from '../../../engine/checkpoint/fs-storage.ts';
import type { CheckpointAck, CheckpointBarrier } from '../../../engine/contracts/checkpoint.ts';
import type { CompletedCheckpoint } from '../../../engine/contracts/checkpoint-storage.ts';
import { keyGroupOf, keyGroupRangeFor } from '../../../engine/state/keygroups.ts';
import type { RocksDBStateBackend } from '../../../engine/state/rocksdb-backend.ts';
import { MAX_PARALLELISM, dump, sk } from '../state/conformance.ts';
import { rocksHarness, type RocksHarness } from '../state/rocksdb-harness.ts';
import { ManualTimers } from './coordinator-harness.ts';

describe('CheckpointCoordinator retention with filesystem storage and incremental RocksDB', () => {
  let h: RocksHarness;
  const disposables: RocksDBStateBackend[] = [];
  before(async () => {
    h = await rocksHarness(true);
  });
  after(async () => {
    for (const b of disposables) await b.dispose();
    await h.cleanup();
  });

  it('keeps the last `retained` checkpoints restorable, deletes subsumed ones and unreferenced shared files, keeps savepoints', async () => {
    const root = h.storage.root;
    const storage = new FsCheckpointStorage(root, 'job');
    await storage.open();
    const ranges = [keyGroupRangeFor(MAX_PARALLELISM, 2, 0), keyGroupRangeFor(MAX_PARALLELISM, 2, 1)];
    const backends = [
      await h.create(ranges[0], { subtask: 0, operatorId: 'win', maxDeltaChain: 2 }),
      await h.create(ranges[1], { subtask: 1, operatorId: 'win', maxDeltaChain: 2 }),
    ];
    disposables.push(...backends);
    const ownerOf = (key: string) => (keyGroupOf(key, MAX_PARALLELISM) <= ranges[0].end ? 0 : 1);
    const timers = new ManualTimers();
    const barriers: CheckpointBarrier[] = [];
    const notified: number[] = [];
    const coordinator = new CheckpointCoordinator({
      settings: { interval: 100, timeout: 10_000, minPause: 0, retained: 2, tolerableFailures: 0 },
      storage,
      timers,
      gateway: {
        triggerCheckpoint: (b) => barriers.push(b),
        notifyCheckpointComplete: (n) => notified.push(n),
        abortCheckpoint: () => undefined,
      },
      expectedSubtasks: () => [
        { operatorId: 'win', subtask: 0 },
        { operatorId: 'win', subtask: 1 },
      ],
      onJobFailure: (r) => assert.fail(r),
    });
    /** What a task does on barrier n: announce it, snapshot, acknowledge. */
    const runBarrier = async (b: CheckpointBarrier): Promise<void> => {
      h.storage.beginCheckpoint(b);
      for (const [i, backend] of backends.entries()) {
        const keyed = await backend.snapshot(b.id)();
        const ack: CheckpointAck = {
          checkpointId: b.id,
          states: [{ operatorId: 'win', subtask: i, parallelism: 2, keyed }],
          stats: [
            {
              operatorId: 'win',
              subtask: i,
              startDelay: 0,
              alignmentDuration: 0,
              syncDuration: 0,
              asyncDuration: 0,
              checkpointedBytes: keyed.checkpointedBytes,
              fullBytes: keyed.fullBytes,
            },
          ],
        };
        coordinator.receiveAck(ack);
      }
      // Storing does real file I/O: wait until the coordinator is done with this checkpoint.
      await coordinator.settled();
    };
    const expected = new Map<number, Awaited<ReturnType<typeof dump>>>();
    const wholeState = async () => {
      const parts = await Promise.all(backends.map((b) => dump(b, ['w'])));
      return { w: [...parts[0].w, ...parts[1].w].sort((a, b) => (a[0] < b[0] ? -1 : 1)) };
    };
    const restoreAndDump = async (cp: CompletedCheckpoint) => {
      const r = await h.create({ start: 0, end: MAX_PARALLELISM - 1 }, { operatorId: 'check' });
      try {
        await r.restore(
          cp.states.map((s) => s.keyed!),
          { start: 0, end: MAX_PARALLELISM - 1 },
        );
        return await dump(r, ['w']);
      } finally {
        await r.dispose();
      }
    };

    coordinator.start();
    let savepoint: CompletedCheckpoint | null = null;
    for (let round = 0; round < 9; round++) {
      const writes: Array<Array<readonly [string, number | undefined]>> = [[], []];
      for (let i = 0; i < 2000; i++) {
        const key = `user${i}`;
        let v: number | undefined | null = null;
        if (round === 0) v = i;
        else if ((i * 7 + round) % 50 === 0) v = round * 100_000 + i;
        else if ((i * 13 + round) % 211 === 0) v = undefined;
        if (v !== null) writes[ownerOf(key)].push([sk(key), v]);
      }
      await backends[0].table<number>('w').writeMany(writes[0]);
      await backends[1].table<number>('w').writeMany(writes[1]);
      if (round === 4) {
        const sp = coordinator.triggerSavepoint();
        await runBarrier(barriers[barriers.length - 1]);
        savepoint = await sp;
        expected.set(savepoint.id, await wholeState());
        continue;
      }
      await timers.advance(100);
      const b = barriers[barriers.length - 1];
      expected.set(b.id, await wholeState());
      await runBarrier(b);
      assert.deepEqual(notified[notified.length - 1], b.id);

      // Every retained checkpoint is still restorable, from disk, to exactly its state.
      const retained = coordinator.retainedCheckpoints();
      assert.ok(retained.length <= 2);
      for (const cp of retained) {
        const loaded = await storage.load(cp.location);
        assert.deepEqual(await restoreAndDump(loaded), expected.get(cp.id), `checkpoint ${cp.id} after round ${round}`);
      }
    }
    coordinator.stop();
    const retainedIds = coordinator.retainedCheckpoints().map((c) => c.id);
    const folders = (await readdir(root)).filter((n) => n.startsWith('chk-')).sort();
    assert.deepEqual(folders, retainedIds.map((n) => `chk-${n}`).sort());
    // shared/ holds exactly the files the retained checkpoints reference.
    const referenced = new Set(
      coordinator
        .retainedCheckpoints()
        .flatMap((c) => c.states.flatMap((s) => s.keyed!.files!.filter((f) => f.shared).map((f) => f.path))),
    );
    assert.deepEqual((await readdir(join(root, 'shared'))).map((n) => `shared/${n}`).sort(), [...referenced].sort());
    // The savepoint survived every subsumption and restores exactly.
    assert.ok(savepoint);
    assert.deepEqual(await restoreAndDump(await storage.load(savepoint.location)), expected.get(savepoint.id));
    // A restarted host (fresh storage, rebuilt reference counts) resumes from the newest and continues ids.
    const reopened = new FsCheckpointStorage(root, 'job');
    await reopened.open();
    const latest = await reopened.resumeLatest();
    assert.equal(latest.id, Math.max(...retainedIds));
    assert.deepEqual(await restoreAndDump(latest), expected.get(latest.id));
    const next = new CheckpointCoordinator({
      settings: { interval: 100, timeout: 1000, minPause: 0, retained: 2, tolerableFailures: 0 },
      storage: reopened,
      timers: new ManualTimers(),
      gateway: {
        triggerCheckpoint: (b) => barriers.push(b),
        notifyCheckpointComplete: () => undefined,
        abortCheckpoint: () => undefined,
      },
      expectedSubtasks: () => [],
      onJobFailure: () => undefined,
    });
    await next.restoreFrom(latest);
    assert.deepEqual(
      next.retainedCheckpoints().map((c) => c.id),
      [...retainedIds].sort((a, b) => a - b),
    );
    const final = next.triggerCheckpoint();
    assert.equal(barriers[barriers.length - 1].id, latest.id + 1);
    await next.settled();
    assert.equal((await final).id, latest.id + 1);
    next.stop();
  });
});
