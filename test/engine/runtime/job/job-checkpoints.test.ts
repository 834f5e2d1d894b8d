// The CheckpointCoordinator as a run configures it (runtime/job/job-checkpoints.ts), on a manual clock.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createJobCoordinator } from '../../../../engine/runtime/job/job-checkpoints.ts';
import { MemoryCheckpointStorage } from '../../../../engine/checkpoint/memory-storage.ts';
import type { CheckpointAck, CheckpointBarrier, CheckpointStats } from '../../../../engine/contracts/checkpoint.ts';
import type { CompletedCheckpoint } from '../../../../engine/contracts/checkpoint-storage.ts';
import { DEFAULT_SETTINGS } from '../../../../engine/graph/types.ts';
import { ManualTimers } from '../../checkpoint/coordinator-harness.ts';

/** Acks as the task process sends them: states (stats optional). */
const ack = (id: number, sub: number, withStats = true): CheckpointAck => ({
  checkpointId: id,
  states: [{ operatorId: 'op', subtask: sub, parallelism: 2, operator: { sub } }],
  stats: withStats
    ? [
        {
          operatorId: 'op',
          subtask: sub,
          startDelay: 0,
          alignmentDuration: 0,
          syncDuration: 0,
          asyncDuration: 0,
          checkpointedBytes: 1,
          fullBytes: 1,
        },
      ]
    : [],
});

function setup(restored: CompletedCheckpoint | null = null, firstId = 1) {
  const timers = new ManualTimers();
  const log: string[] = [];
  const stats: CheckpointStats[] = [];
  const coordinator = createJobCoordinator({
    settings: { ...DEFAULT_SETTINGS.checkpointing, interval: 100, timeout: 50, tolerableFailures: 1 },
    storage: new MemoryCheckpointStorage('job'),
    subtasks: 2,
    events: {
      trigger: (b: CheckpointBarrier) => log.push(`trigger ${b.kind} ${b.id}`),
      completed: (cp) => log.push(`completed ${cp.id}`),
      stats: (s) => stats.push(s),
      tooManyFailures: (r) => log.push(`too many: ${r}`),
    },
    restored,
    firstId,
    timers,
  });
  const receive = async (a: CheckpointAck) => {
    coordinator.receiveAck(a);
    await coordinator.settled();
  };
  return { timers, log, stats, coordinator, receive };
}

describe('the job coordinator', () => {
  it('triggers, counts acks by subtask (with or without stats), reports completion, publishes start and end stats only', async () => {
    const { timers, log, coordinator, stats, receive } = setup(null, 5);
    coordinator.start();
    await timers.advance(100);
    assert.deepEqual(log, ['trigger checkpoint 5']);
    assert.notEqual(coordinator.inFlight, null);
    await receive(ack(5, 0, false));
    await receive(ack(5, 0, false)); // the same subtask twice counts once
    assert.notEqual(coordinator.inFlight, null);
    await receive(ack(5, 1));
    assert.deepEqual(log, ['trigger checkpoint 5', 'completed 5']);
    assert.equal(coordinator.latestCompleted()?.id, 5);
    assert.equal(coordinator.latestCompleted()?.states.length, 2);
    assert.deepEqual(
      stats.map((s) => s.status),
      ['in_progress', 'completed'],
    );
    assert.equal(coordinator.lastTriggeredId, 5);
    coordinator.stop();
  });

  it('queues a savepoint behind the checkpoint in flight', async () => {
    const { log, coordinator, receive } = setup();
    void coordinator.triggerCheckpoint();
    const sp = coordinator.triggerSavepoint();
    await receive(ack(1, 0));
    await receive(ack(1, 1));
    assert.deepEqual(log, ['trigger checkpoint 1', 'completed 1', 'trigger savepoint 2']);
    await receive(ack(2, 0));
    await receive(ack(2, 1));
    assert.equal((await sp).kind, 'savepoint');
    coordinator.stop();
  });

  it('a failure with the tasks is not counted; timeouts are, up to tolerableFailures', async () => {
    const { timers, log, coordinator } = setup();
    const quiet = (p: Promise<unknown>) => {
      p.catch(() => undefined);
    };
    quiet(coordinator.triggerCheckpoint());
    coordinator.failPending('task failure: boom', false);
    quiet(coordinator.triggerCheckpoint());
    await timers.advance(50); // 2 expires: first counted failure, tolerated
    quiet(coordinator.triggerCheckpoint());
    await timers.advance(50); // 3 expires: second in a row
    assert.equal(log.filter((l) => l.startsWith('too many')).length, 1);
    assert.match(
      log.find((l) => l.startsWith('too many'))!,
      /checkpoint 3 failed and more than 1 consecutive/,
    );
    coordinator.stop();
  });

  it('continues after a restored checkpoint and counts the restore', async () => {
    const restored: CompletedCheckpoint = {
      id: 9,
      kind: 'checkpoint',
      triggerTime: 0,
      time: 0,
      location: 'memory://job/9',
      bytes: 0,
      states: [],
    };
    const { coordinator } = setup(restored, 10);
    assert.equal(coordinator.latestCompleted()?.id, 9);
    coordinator.triggerCheckpoint().catch(() => undefined); // rejected by stop() below
    assert.equal(coordinator.lastTriggeredId, 10);
    assert.equal(coordinator.summary().counts.restored, 1);
    coordinator.stop();
  });
});
