import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CheckpointCoordinator } from '../../../engine/checkpoint/coordinator.ts';
import { MemoryCheckpointStorage } from '../../../engine/checkpoint/memory-storage.ts';
import type { CheckpointStats, CheckpointStatsSummary } from '../../../engine/contracts/checkpoint.ts';
import { ManualTimers, RecordingGateway, SUBTASKS, ackFor, settle } from './coordinator-harness.ts';

describe('CheckpointCoordinator statistics', () => {
  it('records per-checkpoint and per-subtask statistics and counts, emitted through the listener', async () => {
    const timers = new ManualTimers();
    const events: Array<{ stats: CheckpointStats; summary: CheckpointStatsSummary }> = [];
    const coordinator = new CheckpointCoordinator({
      settings: { interval: 100, timeout: 40, minPause: 0, retained: 1, tolerableFailures: 10 },
      storage: new MemoryCheckpointStorage('job'),
      gateway: new RecordingGateway(),
      timers,
      expectedSubtasks: () => SUBTASKS,
      onJobFailure: () => undefined,
      onStats: (stats, summary) => events.push({ stats, summary }),
    });
    coordinator.start();
    await timers.advance(100);
    await timers.advance(5);
    coordinator.receiveAck(ackFor(1, 'src', 0, { bytes: 10, sync: 1 }));
    await timers.advance(5);
    coordinator.receiveAck(ackFor(1, 'win', 0, { bytes: 20, sync: 2 }));
    const mid = coordinator.history()[0];
    assert.equal(mid.status, 'in_progress');
    assert.equal(mid.acknowledged, 2);
    assert.equal(mid.total, 3);
    assert.equal(mid.duration, null);
    await timers.advance(5);
    coordinator.receiveAck(ackFor(1, 'win', 1, { bytes: 30, sync: 3 }));
    await settle();
    const done = coordinator.history()[0];
    assert.equal(done.status, 'completed');
    assert.equal(done.kind, 'checkpoint');
    assert.equal(done.triggerTime, 100);
    assert.equal(done.duration, 15);
    assert.equal(done.acknowledged, 3);
    assert.equal(done.checkpointedBytes, 60);
    assert.equal(done.fullBytes, 120);
    assert.equal(done.location, 'memory://job/1');
    assert.deepEqual(
      done.subtasks.map((s) => [
        s.operatorId,
        s.subtask,
        s.syncDuration,
        s.asyncDuration,
        s.alignmentDuration,
        s.startDelay,
      ]),
      [
        ['src', 0, 1, 4, 2, 1],
        ['win', 0, 2, 4, 2, 1],
        ['win', 1, 3, 4, 2, 1],
      ],
    );
    // Checkpoint 2 fails by timeout.
    await timers.advance(85 + 40);
    const sp = coordinator.triggerSavepoint();
    for (const s of SUBTASKS) coordinator.receiveAck(ackFor(3, s.operatorId, s.subtask));
    await sp;
    const summary = coordinator.summary();
    assert.deepEqual(summary.counts, { triggered: 3, inProgress: 0, completed: 2, failed: 1, restored: 0 });
    assert.equal(summary.latestCompleted?.id, 3);
    assert.equal(summary.latestSavepoint?.id, 3);
    assert.equal(summary.latestFailed?.id, 2);
    assert.match(summary.latestFailed?.failureReason ?? '', /expired/);
    // The listener saw every transition, with copies (not live objects).
    const ofOne = events.filter((e) => e.stats.id === 1).map((e) => `${e.stats.status}:${e.stats.acknowledged}`);
    assert.deepEqual(ofOne, ['in_progress:0', 'in_progress:1', 'in_progress:2', 'in_progress:3', 'completed:3']);
    assert.equal(events[0].stats.status, 'in_progress');
    assert.equal(events[events.length - 1].summary.counts.completed, 2);
    coordinator.stop();
  });
});
