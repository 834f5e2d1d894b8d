import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CheckpointCoordinator, type CheckpointCoordinatorSettings } from '../../../engine/checkpoint/coordinator.ts';
import { MemoryCheckpointStorage } from '../../../engine/checkpoint/memory-storage.ts';
import type { CheckpointStorage } from '../../../engine/contracts/checkpoint-storage.ts';
import { ManualTimers, RecordingGateway, SUBTASKS, ackAll, ackFor, settle } from './coordinator-harness.ts';

function setup(settings: Partial<CheckpointCoordinatorSettings> = {}, storage?: CheckpointStorage) {
  const timers = new ManualTimers();
  const gateway = new RecordingGateway();
  const jobFailures: string[] = [];
  const coordinator = new CheckpointCoordinator({
    settings: { interval: 100, timeout: 50, minPause: 0, retained: 1, tolerableFailures: 0, ...settings },
    storage: storage ?? new MemoryCheckpointStorage('job', 1000),
    gateway,
    timers,
    expectedSubtasks: () => SUBTASKS,
    onJobFailure: (r) => jobFailures.push(r),
  });
  return { timers, gateway, coordinator, jobFailures };
}

describe('CheckpointCoordinator failure handling', () => {
  it('fails a checkpoint not fully acknowledged within the timeout, naming what is missing', async () => {
    const { timers, gateway, coordinator, jobFailures } = setup({ tolerableFailures: 5 });
    coordinator.start();
    await timers.advance(100);
    coordinator.receiveAck(ackFor(1, 'win', 0));
    await timers.advance(49);
    assert.equal(gateway.aborted.length, 0);
    await timers.advance(1);
    assert.equal(gateway.aborted.length, 1);
    const reason = gateway.aborted[0].reason;
    assert.match(reason, /checkpoint 1 expired after 50 ms/);
    assert.match(reason, /1\/3/);
    assert.match(reason, /src#0, win#1/);
    const stats = coordinator.history()[0];
    assert.equal(stats.status, 'failed');
    assert.equal(stats.failureReason, reason);
    assert.equal(stats.duration, 50);
    assert.deepEqual(jobFailures, []);
    // A late ack of the failed checkpoint changes nothing.
    coordinator.receiveAck(ackFor(1, 'src', 0));
    await settle();
    assert.deepEqual(gateway.completed, []);
    coordinator.stop();
  });

  it('a decline with the refused snapshot size keeps it in the failed stats, reported before the job fails', async () => {
    const seen: Array<{ status: string; subtasks: number; failures: number }> = [];
    const timers = new ManualTimers();
    const jobFailures: string[] = [];
    const coordinator = new CheckpointCoordinator({
      settings: { interval: 100, timeout: 5000, minPause: 0, retained: 1, tolerableFailures: 0 },
      storage: new MemoryCheckpointStorage('job', 1000),
      gateway: new RecordingGateway(),
      timers,
      expectedSubtasks: () => SUBTASKS,
      onJobFailure: (r) => jobFailures.push(r),
      onStats: (st) => seen.push({ status: st.status, subtasks: st.subtasks.length, failures: jobFailures.length }),
    });
    coordinator.start();
    await timers.advance(100);
    const refused = { ...ackFor(1, 'win', 1).stats[0], checkpointedBytes: 9000, fullBytes: 9000, limitBytes: 4096 };
    coordinator.declineCheckpoint(1, 'over the limit', [refused]);
    const stats = coordinator.history()[0];
    assert.equal(stats.status, 'failed');
    assert.deepEqual(stats.subtasks, [refused]);
    assert.equal(stats.fullBytes, 9000);
    assert.deepEqual(
      seen.at(-1),
      { status: 'failed', subtasks: 1, failures: 0 },
      'the failed stats go out before the job is failed',
    );
    assert.equal(jobFailures.length, 1);
    coordinator.stop();
  });

  it('fails the job on the first failure with the default tolerableFailures = 0', async () => {
    const { timers, coordinator, jobFailures } = setup();
    coordinator.start();
    await timers.advance(150);
    assert.equal(jobFailures.length, 1);
    assert.match(jobFailures[0], /checkpoint 1 failed and no checkpoint failure is tolerated/);
    assert.match(jobFailures[0], /expired/);
    coordinator.stop();
  });

  it('tolerates N consecutive failures, fails on N+1, and a success resets the count', async () => {
    const { timers, coordinator, jobFailures } = setup({ tolerableFailures: 2 });
    coordinator.start();
    await timers.advance(150); // 1 triggered at 100, fails at 150
    await timers.advance(150); // 2 triggered at 200, fails at 250; 3 triggered at 300
    assert.equal(coordinator.consecutiveFailures, 2);
    assert.equal(coordinator.inFlight?.id, 3);
    for (const a of ackAll(3)) coordinator.receiveAck(a);
    await settle();
    assert.equal(coordinator.consecutiveFailures, 0);
    await timers.advance(150); // 4 triggered at 400, fails at 450
    await timers.advance(100); // 5 triggered at 500, fails at 550
    assert.equal(coordinator.consecutiveFailures, 2);
    assert.deepEqual(jobFailures, []);
    await timers.advance(100); // 6 triggered at 600, fails at 650: third in a row
    assert.equal(jobFailures.length, 1);
    assert.match(jobFailures[0], /more than 2 consecutive checkpoint failures/);
    coordinator.stop();
  });

  it('a decline from a task fails the checkpoint and counts', async () => {
    const { timers, gateway, coordinator, jobFailures } = setup({ tolerableFailures: 1 });
    coordinator.start();
    await timers.advance(100);
    coordinator.declineCheckpoint(1, 'disk full');
    assert.match(gateway.aborted[0].reason, /declined by a task: disk full/);
    assert.equal(coordinator.consecutiveFailures, 1);
    assert.deepEqual(jobFailures, []);
    coordinator.stop();
  });

  it('aborting because the tasks failed does not count as a checkpoint failure', async () => {
    const { timers, gateway, coordinator, jobFailures } = setup();
    coordinator.start();
    await timers.advance(100);
    coordinator.abortPending('task process exited with SIGKILL');
    assert.match(gateway.aborted[0].reason, /aborted: task process exited with SIGKILL/);
    assert.equal(coordinator.consecutiveFailures, 0);
    assert.deepEqual(jobFailures, []);
    coordinator.stop();
  });

  it('memory storage: a subtask snapshot over memoryStateLimit fails the checkpoint with a clear message', async () => {
    const { timers, gateway, coordinator, jobFailures } = setup({ tolerableFailures: 3 });
    coordinator.start();
    await timers.advance(100);
    coordinator.receiveAck(ackFor(1, 'src', 0));
    coordinator.receiveAck(
      ackFor(1, 'win', 1, {
        state: {
          keyed: {
            backend: 'memory',
            keyGroupRange: { start: 64, end: 127 },
            inline: { tables: { w: [['0001:k', 'x'.repeat(2000)]] } },
            checkpointedBytes: 2000,
            fullBytes: 2000,
          },
        },
      }),
    );
    assert.equal(gateway.aborted.length, 1);
    const reason = gateway.aborted[0].reason;
    assert.match(reason, /checkpoint 1 failed: the state of operator 'win' subtask 1 is \d{4} bytes/);
    assert.match(reason, /limit of 1000 bytes/);
    assert.match(reason, /memoryStateLimit/);
    assert.match(reason, /'fs' or 'rocksdb'/);
    assert.deepEqual(gateway.completed, []);
    assert.deepEqual(jobFailures, []);
    coordinator.stop();
  });

  it('a storage failure while persisting fails the checkpoint and never notifies completion', async () => {
    const storage = new MemoryCheckpointStorage('job');
    storage.store = async () => {
      throw new Error('EIO: i/o error');
    };
    const { timers, gateway, coordinator } = setup({ tolerableFailures: 3 }, storage);
    coordinator.start();
    await timers.advance(100);
    for (const a of ackAll(1)) coordinator.receiveAck(a);
    await settle();
    assert.deepEqual(gateway.completed, []);
    assert.match(gateway.aborted[0].reason, /checkpoint 1 could not be stored: EIO/);
    coordinator.stop();
  });

  it('ignores duplicate and unknown acknowledgements', async () => {
    const { timers, gateway, coordinator } = setup();
    coordinator.start();
    await timers.advance(100);
    coordinator.receiveAck(ackFor(1, 'src', 0));
    coordinator.receiveAck(ackFor(1, 'src', 0));
    coordinator.receiveAck(ackFor(1, 'ghost', 9));
    coordinator.receiveAck(ackFor(1, 'win', 0));
    await settle();
    assert.deepEqual(gateway.completed, []);
    assert.equal(coordinator.history()[0].acknowledged, 2);
    coordinator.receiveAck(ackFor(1, 'win', 1));
    await settle();
    assert.deepEqual(gateway.completed, [1]);
    coordinator.stop();
  });
});
