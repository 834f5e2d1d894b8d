/**
 * runtime/job/run-lock.ts on real files: exclusive, released only by its holder, a dead holder's
 * lock (and a reused pid's) taken over with a message, another host's never, folders it created
 * removed again.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { LOCK_FILE, RunLock, RunLockedError, RunLocks } from '../../../../engine/runtime/job/run-lock.ts';
import { tempDir } from '../../../support/run-helpers.ts';

function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

test('a lock is exclusive, names its holder, and is released only by it', () => {
  const { dir, cleanup } = tempDir('lock');
  try {
    const a = RunLock.acquire(join(dir, 'out'), 'job-a');
    const held = JSON.parse(readFileSync(join(dir, 'out', LOCK_FILE), 'utf8'));
    assert.equal(held.pid, process.pid);
    assert.equal(held.host, hostname());
    assert.equal(held.job, 'job-a');
    assert.throws(
      () => RunLock.acquire(join(dir, 'out'), 'job-b'),
      (e: unknown) =>
        e instanceof RunLockedError &&
        new RegExp(`pid ${process.pid} on host .*\\(job 'job-a', since `).test(e.message),
    );
    a.release();
    assert.ok(!existsSync(join(dir, 'out', LOCK_FILE)));
    assert.ok(!existsSync(join(dir, 'out')), 'a folder created only for the lock is removed again');
  } finally {
    cleanup();
  }
});

test("a dead holder's lock and a reused pid's lock are taken over, saying so; another host's never", () => {
  const { dir, cleanup } = tempDir('lock-stale');
  try {
    const file = join(dir, LOCK_FILE);
    const pid = deadPid();
    writeFileSync(
      file,
      JSON.stringify({ pid, host: hostname(), startedAt: new Date().toISOString(), job: 'j', token: 't1' }),
    );
    const notes: string[] = [];
    let l = RunLock.acquire(dir, 'j', (m) => notes.push(m));
    assert.match(notes[0], new RegExp(`took over the lock of pid ${pid} .*which no longer runs`));
    l.release();
    // Our own pid, but the lock is from before this process started: the pid was reused.
    writeFileSync(
      file,
      JSON.stringify({
        pid: process.pid,
        host: hostname(),
        startedAt: '2001-01-01T00:00:00.000Z',
        job: 'j',
        token: 't2',
      }),
    );
    l = RunLock.acquire(dir, 'j', (m) => notes.push(m));
    assert.equal(notes.length, 2);
    l.release();
    writeFileSync(
      file,
      JSON.stringify({ pid, host: 'elsewhere', startedAt: new Date().toISOString(), job: 'j', token: 't3' }),
    );
    assert.throws(() => RunLock.acquire(dir, 'j'), /on host elsewhere .*if it is really gone, delete/);
  } finally {
    cleanup();
  }
});

test('RunLocks takes all or none', () => {
  const { dir, cleanup } = tempDir('locks');
  try {
    const held = RunLock.acquire(join(dir, 'b'), 'other');
    assert.throws(() => RunLocks.acquire([join(dir, 'a'), join(dir, 'b')], 'j'), RunLockedError);
    assert.ok(!existsSync(join(dir, 'a', LOCK_FILE)), 'the lock on a was released again');
    held.release();
    const both = RunLocks.acquire([join(dir, 'a'), join(dir, 'b')], 'j');
    assert.equal(both.locks.length, 2);
    both.release();
  } finally {
    cleanup();
  }
});
