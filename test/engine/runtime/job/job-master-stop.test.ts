// Stopping a run (JobMaster.stop, engine/runtime/job/job-master.ts) on a manual clock.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startMaster, until } from './job-master-harness.ts';

test('stop with a savepoint: the savepoint is taken and committed, then the tasks close', async (t) => {
  const m = startMaster(t);
  await until(() => m.handle.status === 'running', 'running');
  const stopped = await m.handle.stop({ savepoint: true });
  assert.deepEqual(stopped, { savepoint: 'memory://jm/1' });
  assert.deepEqual(await m.handle.done, { status: 'stopped', restarts: 0, savepoint: 'memory://jm/1' });
  assert.deepEqual(m.launcher.log, [
    '→1 start',
    '←1 ready',
    '→1 savepoint 1',
    '←1 ack 1',
    '←1 ack 1',
    '→1 notify 1',
    '←1 notified 1', // the savepoint's sink transactions are committed before close
    '→1 close',
    '←1 closed',
    '×1 code 0',
  ]);
  assert.deepEqual(m.statuses(), ['created', 'running', 'finishing', 'stopped']);
  assert.equal(m.ended()[0].kind, 'savepoint');
});

test('stop: tasks that do not close within 5 s are killed, and the run still ends stopped', async (t) => {
  const m = startMaster(t, { script: (_task, msg) => msg.type === 'close' }); // close is never answered
  await until(() => m.handle.status === 'running', 'running');
  const stopping = m.handle.stop();
  await until(() => m.launcher.log.includes('→1 close'), 'close sent');
  await m.timers.advance(4999);
  assert.equal(m.launcher.current.exited, null, 'not killed before 5 s');
  await m.timers.advance(1);
  assert.deepEqual(await stopping, {});
  assert.deepEqual(await m.handle.done, { status: 'stopped', restarts: 0 });
  assert.deepEqual(m.launcher.current.exited, { code: null, signal: 'SIGKILL' });
  assert.deepEqual(m.launcher.log.slice(-2), ['→1 close', '×1 SIGKILL']);
});

test('stop during a restart delay ends the run at once; no attempt starts after it', async (t) => {
  const m = startMaster(t, { restart: { attempts: 2, delay: '1s' } });
  await until(() => m.handle.status === 'running', 'running');
  m.launcher.current.exit({ code: null, signal: 'SIGKILL' });
  await until(() => m.handle.status === 'restarting', 'restarting');
  assert.deepEqual(await m.handle.stop(), {});
  assert.deepEqual(await m.handle.done, { status: 'stopped', restarts: 1 });
  await m.timers.advance(1000);
  assert.equal(m.launcher.tasks.length, 1);
  assert.deepEqual(m.statuses(), ['created', 'running', 'restarting', 'stopped']);
});

test('a failure reported while the tasks close no longer restarts anything', async (t) => {
  const m = startMaster(t, {
    script: (task, msg) => msg.type === 'close' && (task.reply({ type: 'failed', message: 'late' }), true),
  });
  await until(() => m.handle.status === 'running', 'running');
  const stopping = m.handle.stop();
  await until(() => m.launcher.log.includes('←1 failed'), 'the late failure');
  assert.equal(m.handle.status, 'finishing');
  m.launcher.current.exit({ code: 1, signal: null });
  await stopping;
  assert.deepEqual(await m.handle.done, { status: 'stopped', restarts: 0 });
  assert.equal(m.launcher.tasks.length, 1);
});

// A barrier sent before `ready` reaches no subtask (the real task process has built none yet), so a
// savepoint asked for during start-up used to wait for its timeout while the job ran on.
test('stop with a savepoint before the tasks are ready waits for them, then takes it', async (t) => {
  let release: (() => void) | null = null;
  const m = startMaster(t, {
    script: (task, msg) => {
      if (msg.type === 'start') {
        release = () => task.answer(msg);
        return true;
      }
      return false;
    },
  });
  await until(() => release !== null, 'start sent');
  const stopping = m.handle.stop({ savepoint: true });
  await new Promise((r) => setImmediate(r));
  assert.ok(!m.launcher.log.some((l) => l.includes('savepoint')), 'no barrier before ready');
  release!();
  assert.deepEqual(await stopping, { savepoint: 'memory://jm/1' });
  assert.deepEqual(await m.handle.done, { status: 'stopped', restarts: 0, savepoint: 'memory://jm/1' });
  assert.deepEqual(m.launcher.log.slice(0, 3), ['→1 start', '←1 ready', '→1 savepoint 1']);
});

test('a savepoint asked for during a restart is taken once the new attempt is ready', async (t) => {
  const m = startMaster(t, { restart: { attempts: 2, delay: '1s' } });
  await until(() => m.handle.status === 'running', 'running');
  m.launcher.current.exit({ code: null, signal: 'SIGKILL' });
  await until(() => m.handle.status === 'restarting', 'restarting');
  const taking = m.handle.triggerSavepoint();
  await m.timers.advance(1000);
  const sp = await taking;
  assert.equal(sp.id, 1);
  assert.ok(m.launcher.log.indexOf('←2 ready') < m.launcher.log.indexOf('→2 savepoint 1'), m.launcher.log.join('\n'));
});
