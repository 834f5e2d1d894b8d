// The job lifecycle table (runtime/job/job-state.ts): allowed paths pass, everything else throws.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JobStateMachine, canTransition, isTerminal } from '../../../../engine/runtime/job/job-state.ts';
import { IllegalJobTransitionError } from '../../../../engine/runtime/job/errors.ts';
import type { JobStatus } from '../../../../engine/contracts/run-events.ts';

const ALL: JobStatus[] = ['created', 'running', 'restarting', 'finishing', 'finished', 'stopped', 'failed', 'canceled'];

test('the designed paths are allowed and reported in order, with their cause', () => {
  const seen: string[] = [];
  const m = new JobStateMachine((s, cause) => seen.push(cause ? `${s}: ${cause}` : s));
  m.announce();
  m.to('running');
  m.to('restarting', 'the task process killed by SIGKILL');
  m.to('restarting', 'again');
  m.to('running');
  m.to('finishing');
  m.to('finished');
  assert.deepEqual(seen, [
    'created',
    'running',
    'restarting: the task process killed by SIGKILL',
    'restarting: again',
    'running',
    'finishing',
    'finished',
  ]);
  assert.equal(m.terminal, true);
});

test('terminal states have no way out; finishing can no longer fail or restart', () => {
  for (const from of ALL.filter(isTerminal)) {
    for (const to of ALL) assert.equal(canTransition(from, to), false, `${from} -> ${to}`);
  }
  assert.deepEqual(ALL.filter(isTerminal), ['finished', 'stopped', 'failed', 'canceled']);
  assert.equal(canTransition('finishing', 'restarting'), false);
  assert.equal(canTransition('finishing', 'failed'), false);
  assert.equal(canTransition('running', 'finished'), false, 'a run finishes only through finishing');
  assert.equal(canTransition('running', 'created'), false);
});

test('a forbidden transition throws and leaves the state as it was', () => {
  const m = new JobStateMachine(() => undefined);
  m.to('failed', 'boom');
  assert.throws(
    () => m.to('running'),
    (e: unknown) => e instanceof IllegalJobTransitionError && /failed -> running/.test(e.message),
  );
  assert.equal(m.status, 'failed');
});
