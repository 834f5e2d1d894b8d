import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CheckpointCoordinator, type CheckpointCoordinatorSettings } from '../../../engine/checkpoint/coordinator.ts';
import { MemoryCheckpointStorage } from '../../../engine/checkpoint/memory-storage.ts';
import type { CheckpointStorage } from '../../../engine/contracts/checkpoint-storage.ts';
import { ManualTimers, RecordingGateway, SUBTASKS, ackAll, settle } from './coordinator-harness.ts';

function setup(settings: Partial<CheckpointCoordinatorSettings> = {}, storage?: CheckpointStorage) {
  const timers = new ManualTimers();
  const gateway = new RecordingGateway();
  const jobFailures: string[] = [];
  const coordinator = new CheckpointCoordinator({
    settings: { interval: 100, timeout: 1000, minPause: 0, retained: 1, tolerableFailures: 0, ...settings },
    storage: storage ?? new MemoryCheckpointStorage('job'),
    gateway,
    timers,
    expectedSubtasks: () => SUBTASKS,
    onJobFailure: (r) => jobFailures.push(r),
  });
  return { timers, gateway, coordinator, jobFailures };
}

async function ackAllOf(c: CheckpointCoordinator, id: number): Promise<void> {
  for (const a of ackAll(id)) c.receiveAck(a);
  await settle();
}

describe('CheckpointCoordinator triggering', () => {
  it('triggers every interval, starting one interval after start', async () => {
    const { timers, gateway, coordinator } = setup();
    coordinator.start();
    await timers.advance(99);
    assert.equal(gateway.triggered.length, 0);
    await timers.advance(1);
    assert.deepEqual(gateway.triggered, [{ id: 1, timestamp: 100, kind: 'checkpoint' }]);
    await timers.advance(10);
    await ackAllOf(coordinator, 1);
    assert.deepEqual(gateway.completed, [1]);
    await timers.advance(89);
    assert.equal(gateway.triggered.length, 1);
    await timers.advance(1);
    assert.deepEqual(
      gateway.triggered.map((b) => [b.id, b.timestamp]),
      [
        [1, 100],
        [2, 200],
      ],
    );
    coordinator.stop();
  });

  it('keeps at most one checkpoint in flight and triggers the next right after a late completion', async () => {
    const { timers, gateway, coordinator } = setup();
    coordinator.start();
    await timers.advance(100);
    await timers.advance(250); // t=350: interval passed twice, still only checkpoint 1
    assert.equal(gateway.triggered.length, 1);
    await ackAllOf(coordinator, 1);
    await timers.advance(0);
    assert.deepEqual(
      gateway.triggered.map((b) => [b.id, b.timestamp]),
      [
        [1, 100],
        [2, 350],
      ],
    );
    coordinator.stop();
  });

  it('honours minPause measured from the last completion', async () => {
    const { timers, gateway, coordinator } = setup({ interval: 100, minPause: 80 });
    coordinator.start();
    await timers.advance(100);
    await timers.advance(50);
    await ackAllOf(coordinator, 1); // completed at 150
    await timers.advance(79); // t=229: interval passed (200) but the pause runs until 230
    assert.equal(gateway.triggered.length, 1);
    await timers.advance(1);
    assert.deepEqual(
      gateway.triggered.map((b) => b.timestamp),
      [100, 230],
    );
    coordinator.stop();
  });

  it('does not trigger periodically when checkpointing is off, but savepoints still work', async () => {
    const { timers, gateway, coordinator } = setup({ interval: null });
    coordinator.start();
    await timers.advance(10_000);
    assert.equal(gateway.triggered.length, 0);
    const sp = coordinator.triggerSavepoint();
    assert.deepEqual(gateway.last, { id: 1, timestamp: 10_000, kind: 'savepoint' });
    await ackAllOf(coordinator, 1);
    assert.equal((await sp).kind, 'savepoint');
    coordinator.stop();
  });

  it('queues a savepoint requested while a checkpoint is in flight and runs it right after', async () => {
    const { timers, gateway, coordinator } = setup({ interval: 100, minPause: 500 });
    coordinator.start();
    await timers.advance(100);
    const sp = coordinator.triggerSavepoint();
    await timers.advance(20);
    assert.equal(gateway.triggered.length, 1, 'savepoint waits for the in-flight checkpoint');
    await ackAllOf(coordinator, 1);
    assert.deepEqual(
      gateway.triggered.map((b) => [b.id, b.kind, b.timestamp]),
      [
        [1, 'checkpoint', 100],
        [2, 'savepoint', 120],
      ],
    );
    await timers.advance(5);
    await ackAllOf(coordinator, 2);
    const done = await sp;
    assert.equal(done.id, 2);
    assert.equal(done.location, 'memory://job/2');
    assert.deepEqual(gateway.completed, [1, 2]);
    // The periodic schedule resumes after minPause from the savepoint's completion (t=125 + 500).
    await timers.advance(499);
    assert.equal(gateway.triggered.length, 2);
    await timers.advance(1);
    assert.equal(gateway.last.id, 3);
    assert.equal(gateway.last.timestamp, 625);
    coordinator.stop();
  });

  it('rejects a savepoint that fails without failing the job', async () => {
    const { timers, coordinator, jobFailures } = setup({ interval: null, timeout: 50 });
    coordinator.start();
    const sp = coordinator.triggerSavepoint();
    const outcome = sp.then(
      () => null,
      (err: Error) => err,
    );
    await timers.advance(50);
    assert.match(String(await outcome), /savepoint 1 expired after 50 ms/);
    assert.deepEqual(jobFailures, []);
    coordinator.stop();
  });

  it('continues checkpoint ids after a restore', async () => {
    const { timers, gateway, coordinator } = setup();
    await coordinator.restoreFrom({
      id: 7,
      kind: 'checkpoint',
      triggerTime: 0,
      time: 0,
      location: 'memory://job/7',
      bytes: 0,
      states: [],
    });
    coordinator.start();
    await timers.advance(100);
    assert.equal(gateway.last.id, 8);
    const summary = coordinator.summary();
    assert.equal(summary.counts.restored, 1);
    assert.deepEqual(summary.latestRestore, { id: 7, kind: 'checkpoint', location: 'memory://job/7', restoreTime: 0 });
    coordinator.stop();
  });

  it('after restoring an older checkpoint, ids skip every stored id and newer checkpoints are not adopted', async () => {
    const storage = new MemoryCheckpointStorage('job');
    const three = await storage.store({ id: 3, kind: 'checkpoint', triggerTime: 0, barrierTimestamp: 0, states: [] });
    await storage.store({ id: 7, kind: 'checkpoint', triggerTime: 0, barrierTimestamp: 0, states: [] });
    const { timers, gateway, coordinator } = setup({}, storage);
    await coordinator.restoreFrom(three);
    assert.equal(coordinator.latestCompleted()?.id, 3, 'the abandoned checkpoint 7 is never the restore point');
    coordinator.start();
    await timers.advance(100);
    assert.equal(gateway.last.id, 8);
    coordinator.stop();
  });

  it('stop() aborts the in-flight checkpoint and cancels queued requests and timers', async () => {
    const { timers, gateway, coordinator, jobFailures } = setup();
    coordinator.start();
    await timers.advance(100);
    const sp = coordinator.triggerSavepoint();
    const outcome = sp.then(
      () => null,
      (err: Error) => err,
    );
    coordinator.stop('job finished');
    assert.match(String(await outcome), /cancelled: job finished/);
    assert.deepEqual(
      gateway.aborted.map((a) => a.id),
      [1],
    );
    assert.match(gateway.aborted[0].reason, /job finished/);
    assert.deepEqual(jobFailures, [], 'stopping is not a checkpoint failure');
    assert.equal(timers.pendingTimers, 0);
  });

  it('on-demand checkpoints (final checkpoint of a bounded job) resolve when complete', async () => {
    const { gateway, coordinator } = setup({ interval: null });
    coordinator.start();
    const final = coordinator.triggerCheckpoint();
    await ackAllOf(coordinator, 1);
    assert.equal((await final).kind, 'checkpoint');
    assert.deepEqual(gateway.log, ['trigger checkpoint 1', 'complete 1']);
    coordinator.stop();
  });
});
