// JobMaster restarts (engine/runtime/job/job-master.ts, restart-policy.ts) on a manual clock.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startMaster, until } from './job-master-harness.ts';

test('a task process that dies restarts after the delay, restoring the latest completed checkpoint', async (t) => {
  const m = startMaster(t, { restart: { attempts: 2, delay: '1s' } });
  await until(() => m.handle.status === 'running', 'running');
  await m.timers.advance(100); // checkpoint 1
  await until(() => m.ended().length === 1, 'checkpoint 1 to end');
  assert.equal(m.ended()[0].status, 'completed');
  m.launcher.current.exit({ code: null, signal: 'SIGKILL' });
  await until(() => m.handle.status === 'restarting', 'restarting');
  assert.deepEqual(
    m.events.filter((e) => e.type === 'job.restart'),
    [{ type: 'job.restart', restarts: 1, cause: 'the task process killed by SIGKILL', restoredCheckpoint: 1 }],
  );
  // No new attempt before the delay has passed, then exactly one.
  await m.timers.advance(999);
  assert.equal(m.launcher.tasks.length, 1);
  await m.timers.advance(1);
  await until(() => m.handle.status === 'running', 'running again');
  assert.equal(m.launcher.tasks.length, 2);
  const start = m.launcher.current.received[0];
  assert.ok(start.type === 'start');
  assert.equal(start.attempt, 2);
  assert.equal(start.restore?.checkpointId, 1);
  // Ids continue after the restore; the interval has long passed, so checkpoint 2 comes at once.
  await until(() => m.ended().length === 2, 'checkpoint 2 to end');
  assert.equal(m.ended()[1].triggerTime, 1100);
  assert.deepEqual(
    m.ended().map((s) => [s.id, s.status]),
    [
      [1, 'completed'],
      [2, 'completed'],
    ],
  );
  assert.deepEqual(m.statuses(), ['created', 'running', 'restarting', 'running']);
  // What the dead attempt still says is ignored.
  m.launcher.tasks[0].exit({ code: 1, signal: null });
  await until(() => true, 'nothing');
  assert.equal(m.handle.status, 'running');
  await m.handle.stop();
});

test('restarts run out: the run fails with the cause and how many restarts were tried', async (t) => {
  const m = startMaster(t, { restart: { attempts: 1, delay: '500ms' } });
  await until(() => m.handle.status === 'running', 'running');
  m.launcher.current.reply({ type: 'failed', message: 'operator out threw: disk full' });
  await until(() => m.handle.status === 'restarting', 'restarting');
  assert.ok(m.launcher.tasks[0].exited, 'the failed attempt is killed');
  await m.timers.advance(500);
  await until(() => m.handle.status === 'running', 'running again');
  m.launcher.current.exit({ code: null, signal: 'SIGKILL' });
  const r = await m.handle.done;
  assert.deepEqual(r, {
    status: 'failed',
    cause: 'the task process killed by SIGKILL; gave up after 1 restart (settings.restart.attempts = 1)',
    restarts: 1,
  });
  assert.deepEqual(m.statuses(), ['created', 'running', 'restarting', 'running', 'failed']);
  // No attempt is launched after the end, however long the clock runs.
  await m.timers.advance(10_000);
  assert.equal(m.launcher.tasks.length, 2);
});

test('restarts disabled: the first failure ends the run and says so', async (t) => {
  const m = startMaster(t, { restart: { attempts: 0, delay: '1s' } });
  await until(() => m.handle.status === 'running', 'running');
  m.launcher.current.exit({ code: 3, signal: null });
  const r = await m.handle.done;
  assert.equal(r.status, 'failed');
  assert.equal(r.cause, 'the task process exited with code 3; restarts are disabled (settings.restart.attempts = 0)');
  assert.equal(m.launcher.tasks.length, 1);
});

test('a process that dies again before it is ready restarts again (restarting -> restarting)', async (t) => {
  const m = startMaster(t, {
    restart: { attempts: 3, delay: '1s' },
    // The second attempt crashes while starting, before `ready`.
    script: (task, msg) => msg.type === 'start' && task.attempt === 2 && (task.exit({ code: 1, signal: null }), true),
  });
  await until(() => m.handle.status === 'running', 'running');
  m.launcher.current.exit({ code: null, signal: 'SIGKILL' });
  await until(() => m.handle.status === 'restarting', 'restarting');
  await m.timers.advance(1000);
  await until(() => m.events.filter((e) => e.type === 'job.restart').length === 2, 'the second restart');
  await m.timers.advance(1000);
  await until(() => m.handle.status === 'running', 'running on attempt 3');
  assert.deepEqual(m.statuses(), ['created', 'running', 'restarting', 'restarting', 'running']);
  await m.handle.stop();
});
