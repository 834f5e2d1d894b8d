// JobMaster and checkpoints (engine/runtime/job/job-master.ts, end-of-input.ts) on a manual clock:
// failed checkpoints, a task process dying between preCommit and commit, how a bounded run ends.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { finalName } from '../../../../engine/connectors/file-sink-txn.ts';
import type { FileSinkState } from '../../../../engine/connectors/file-sink.ts';
import { MANIFEST_FILE } from '../../../../engine/connectors/sink-manifest.ts';
import { startMaster, until } from './job-master-harness.ts';

test('a declined checkpoint within checkpointing.tolerableFailures fails alone; the run goes on', async (t) => {
  const m = startMaster(t, {
    checkpointing: { tolerableFailures: 1 },
    script: (task, msg) =>
      msg.type === 'trigger' &&
      msg.barrier.id === 1 &&
      (task.reply({ type: 'decline', checkpointId: 1, reason: 'snapshot of out failed: EIO' }), true),
  });
  await until(() => m.handle.status === 'running', 'running');
  await m.timers.advance(100);
  await until(() => m.ended().length === 1, 'checkpoint 1 to end');
  assert.equal(m.ended()[0].status, 'failed');
  assert.match(m.ended()[0].failureReason ?? '', /checkpoint 1 was declined by a task: snapshot of out failed: EIO/);
  await m.timers.advance(100);
  await until(() => m.ended().length === 2, 'checkpoint 2 to end');
  assert.deepEqual(
    m.ended().map((s) => [s.id, s.status]),
    [
      [1, 'failed'],
      [2, 'completed'],
    ],
  );
  assert.equal(m.handle.status, 'running');
  assert.equal(m.launcher.tasks.length, 1, 'no restart');
  // A failed checkpoint is never notified: the tasks commit nothing for it.
  assert.ok(!m.launcher.log.includes('→1 notify 1'));
  await m.handle.stop();
});

test('a checkpoint past its timeout fails; one failure too many restarts from the last completed', async (t) => {
  const m = startMaster(t, {
    checkpointing: { tolerableFailures: 0, timeout: '1s' },
    // Attempt 1 acknowledges checkpoint 1, then never answers a barrier again.
    script: (task, msg) => task.attempt === 1 && msg.type === 'trigger' && msg.barrier.id > 1,
  });
  await until(() => m.handle.status === 'running', 'running');
  await m.timers.advance(100);
  await until(() => m.ended().length === 1, 'checkpoint 1 to end');
  await m.timers.advance(100); // checkpoint 2 is triggered and never acknowledged
  assert.equal(m.handle.status, 'running');
  await m.timers.advance(999);
  assert.equal(m.ended().length, 1, 'not expired before its timeout');
  await m.timers.advance(1);
  await until(() => m.handle.status === 'restarting', 'restarting');
  assert.match(m.ended()[1].failureReason ?? '', /checkpoint 2 expired after 1000 ms/);
  const restart = m.events.find((e) => e.type === 'job.restart');
  assert.ok(restart?.type === 'job.restart');
  assert.match(restart.cause, /no checkpoint failure is tolerated \(checkpointing.tolerableFailures = 0\)/);
  assert.equal(restart.restoredCheckpoint, 1);
  await m.timers.advance(1000);
  await until(() => m.handle.status === 'running', 'running again');
  const start = m.launcher.current.received[0];
  assert.ok(start.type === 'start' && start.restore?.checkpointId === 1);
  await m.handle.stop();
});

test('a task process dying between preCommit and commit: the next attempt starts only after the sink committed', async (t) => {
  const out = (dir: string) => join(dir, 'out');
  let dir = '';
  const seenAtNotify: string[] = [];
  const seenAtStart: boolean[] = [];
  const final = finalName('l1', 0, 1, 'jsonl');
  const m = startMaster(t, {
    // The sink pre-commits one transaction per checkpoint: a hidden folder the ack lists as pending.
    stateOf: (operatorId, subtask, barrier) => {
      if (operatorId !== 'out') return undefined;
      const txn = `.pending-l1-${subtask}-fake-${barrier.id}`;
      mkdirSync(join(out(dir), txn), { recursive: true });
      writeFileSync(join(out(dir), txn, 'part'), `{"checkpoint":${barrier.id}}\n`);
      const pending = [{ checkpointId: barrier.id, dir: txn, final, records: 1 }];
      return { pending, lineage: 'l1' } satisfies FileSinkState;
    },
    script: (task, msg) => {
      if (msg.type === 'notify' && task.attempt === 1) {
        // What checkpoint 1 commits is on record before the tasks hear of it; then the process dies.
        seenAtNotify.push(readFileSync(join(out(dir), MANIFEST_FILE), 'utf8'));
        task.exit({ code: null, signal: 'SIGKILL' });
        return true;
      }
      if (msg.type === 'start' && task.attempt === 2) seenAtStart.push(existsSync(join(out(dir), final)));
      return false;
    },
  });
  dir = m.dir;
  await until(() => m.handle.status === 'running', 'running');
  assert.ok(!existsSync(join(out(dir), final)));
  await m.timers.advance(100);
  await until(() => m.handle.status === 'restarting', 'restarting after the death');
  assert.equal(m.ended()[0].status, 'completed', 'checkpoint 1 completed before the process died');
  assert.match(seenAtNotify[0], new RegExp(`"checkpoint":1,"files":\\["${final}"\\]`));
  assert.ok(!existsSync(join(out(dir), final)), 'nothing committed by the dead process');
  await m.timers.advance(1000);
  await until(() => seenAtStart.length === 1, 'attempt 2 to start');
  assert.deepEqual(seenAtStart, [true], 'committed by recovery before the new attempt started');
  assert.equal(readFileSync(join(out(dir), final), 'utf8'), '{"checkpoint":1}\n');
  const start = m.launcher.current.received[0];
  assert.ok(start.type === 'start' && start.restore?.checkpointId === 1);
  await m.handle.stop();
});

test('end of input: a checkpoint after exhaustion is notified before the tasks are told to close', async (t) => {
  // Checkpoint 1 is in flight when the sources run dry: its acks are held until then.
  let held: (() => void) | null = null;
  const m = startMaster(t, {
    script: (task, msg) => {
      if (msg.type !== 'trigger' || msg.barrier.id !== 1) return false;
      held = () => task.answer(msg);
      return true;
    },
  });
  await until(() => m.handle.status === 'running', 'running');
  await m.timers.advance(100);
  await until(() => held !== null, 'checkpoint 1 in flight');
  const task = m.launcher.current;
  task.reply({ type: 'exhausted' });
  task.reply({ type: 'finished' });
  await until(() => task.exited === null && m.launcher.log.includes('←1 finished'), 'finished');
  // Checkpoint 1 was cut before the last records: not the final one, so no close yet.
  held!();
  const r = await m.handle.done;
  assert.deepEqual(r, { status: 'finished', restarts: 0 });
  assert.deepEqual(m.launcher.log, [
    '→1 start',
    '←1 ready',
    '→1 trigger 1',
    '←1 exhausted',
    '←1 finished',
    '←1 ack 1',
    '←1 ack 1',
    '→1 notify 1',
    '←1 notified 1',
    '→1 trigger 2', // the final checkpoint, triggered after exhaustion
    '←1 ack 2',
    '←1 ack 2',
    '→1 notify 2',
    '←1 notified 2',
    '→1 close', // only once the final checkpoint was notified
    '←1 closed',
    '×1 code 0',
  ]);
  assert.deepEqual(m.statuses(), ['created', 'running', 'finishing', 'finished']);
  // Periodic checkpoints stopped with the run: the clock moving on triggers nothing.
  await m.timers.advance(1000);
  assert.equal(m.launcher.log.filter((l) => l.includes('trigger')).length, 2);
});

test('end of input without checkpointing: tasks close as soon as they finished', async (t) => {
  const m = startMaster(t, { checkpointing: { interval: null } });
  await until(() => m.handle.status === 'running', 'running');
  m.launcher.current.reply({ type: 'exhausted' });
  m.launcher.current.reply({ type: 'finished' });
  const r = await m.handle.done;
  assert.deepEqual(r, { status: 'finished', restarts: 0 });
  assert.ok(!m.launcher.log.some((l) => l.includes('trigger')));
  assert.deepEqual(m.launcher.log.slice(-3), ['→1 close', '←1 closed', '×1 code 0']);
});
