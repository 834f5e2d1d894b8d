import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CoordinatorCheckpointDriver } from '../../../engine/checkpoint/runtime-driver.ts';
import { MemoryCheckpointStorage } from '../../../engine/checkpoint/memory-storage.ts';
import type { CheckpointAck, CheckpointBarrier, CheckpointStats } from '../../../engine/contracts/checkpoint.ts';
import type { CompletedCheckpoint } from '../../../engine/contracts/checkpoint-storage.ts';
import { DEFAULT_SETTINGS } from '../../../engine/graph/types.ts';
import { ManualTimers } from './coordinator-harness.ts';

/** Acks as the task process sends them: states (stats optional). */
const ack = (id: number, sub: number, withStats = true): CheckpointAck => ({
  checkpointId: id,
  states: [{ operatorId: 'op', subtask: sub, parallelism: 2, operator: { sub } }],
  stats: withStats ? [{ operatorId: 'op', subtask: sub, startDelay: 0, alignmentDuration: 0, syncDuration: 0, asyncDuration: 0, checkpointedBytes: 1, fullBytes: 1 }] : [],
});

function setup(restored: CompletedCheckpoint | null = null, firstId = 1) {
  const timers = new ManualTimers();
  const log: string[] = [];
  const stats: CheckpointStats[] = [];
  const driver = new CoordinatorCheckpointDriver(
    { ...DEFAULT_SETTINGS.checkpointing, interval: 100, timeout: 50, tolerableFailures: 1 },
    new MemoryCheckpointStorage('job'),
    {
      trigger: (b: CheckpointBarrier) => log.push(`trigger ${b.kind} ${b.id}`),
      completed: (cp) => log.push(`completed ${cp.id}`),
      stats: (s) => stats.push(s),
      tooManyFailures: (r) => log.push(`too many: ${r}`),
    },
    restored, firstId, timers,
  );
  driver.total = 2;
  return { timers, log, stats, driver };
}

describe('CoordinatorCheckpointDriver (the runner-facing adapter)', () => {
  it('triggers, counts acks by subtask (with or without stats) and reports completion', async () => {
    const { timers, log, driver, stats } = setup(null, 5);
    driver.start();
    await timers.advance(100);
    assert.deepEqual(log, ['trigger checkpoint 5']);
    assert.equal(driver.inFlight, true);
    await driver.onAck(ack(5, 0, false));
    await driver.onAck(ack(5, 0, false)); // the same subtask twice counts once
    assert.equal(driver.inFlight, true);
    await driver.onAck(ack(5, 1));
    assert.deepEqual(log, ['trigger checkpoint 5', 'completed 5']);
    assert.equal(driver.latest?.id, 5);
    assert.equal(driver.latest?.states.length, 2);
    assert.deepEqual(stats.map((s) => s.status), ['in_progress', 'completed']);
    assert.equal(driver.lastTriggeredId, 5);
    driver.dispose();
  });

  it('triggerNow returns null while one is in flight; request queues a savepoint behind it', async () => {
    const { log, driver } = setup();
    assert.equal(driver.triggerNow('checkpoint'), 1);
    assert.equal(driver.triggerNow('checkpoint'), null);
    const sp = driver.request('savepoint');
    await driver.onAck(ack(1, 0));
    await driver.onAck(ack(1, 1));
    assert.deepEqual(log, ['trigger checkpoint 1', 'completed 1', 'trigger savepoint 2']);
    await driver.onAck(ack(2, 0));
    await driver.onAck(ack(2, 1));
    assert.equal((await sp).kind, 'savepoint');
    driver.dispose();
  });

  it('fail(reason, false) is not counted; timeouts are, up to tolerableFailures', async () => {
    const { timers, log, driver } = setup();
    driver.triggerNow();
    driver.fail('task failure: boom', false);
    driver.triggerNow();
    await timers.advance(50); // 2 expires: first counted failure, tolerated
    driver.triggerNow();
    await timers.advance(50); // 3 expires: second in a row
    assert.equal(log.filter((l) => l.startsWith('too many')).length, 1);
    assert.match(log.find((l) => l.startsWith('too many'))!, /checkpoint 3 failed and more than 1 consecutive/);
    driver.dispose();
  });

  it('continues after a restored checkpoint and reports it as latest until a new one completes', async () => {
    const restored: CompletedCheckpoint = { id: 9, kind: 'checkpoint', triggerTime: 0, time: 0, location: 'memory://job/9', bytes: 0, states: [] };
    const { driver } = setup(restored, 10);
    assert.equal(driver.latest?.id, 9);
    assert.equal(driver.triggerNow(), 10);
    assert.equal(driver.summary().counts.restored, 1);
    driver.dispose();
  });
});
