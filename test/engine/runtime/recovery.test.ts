/**
 * Recovery through the real CLI: task process SIGKILL without restarts fails clearly (never hangs),
 * a crash between preCommit and commit loses and duplicates nothing, the memory backend refuses
 * --resume without touching output, and Ctrl-C stops with a savepoint that --from continues.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  childPids,
  runWeir,
  sinkStarted,
  startWeir,
  startWeirWithFaults,
  tempDir,
  waitFor,
  waitForExit,
  watchTaskPids,
  writeJob,
  readCommitted,
} from '../../support/run-helpers.ts';
import { chaosJob } from '../../chaos/chaos-job.ts';
import { assertOutputEqualsReference } from '../../chaos/chaos-runner.ts';

function listing(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .map((n) => {
      const p = join(dir, n);
      return n.startsWith('.pending') ? `${n}/${readdirSync(p).join(',')}` : `${n}:${readFileSync(p).length}`;
    });
}

test(
  'SIGKILL of the task process without restarts: weir run fails with a clear message',
  { timeout: 60_000 },
  async () => {
    const { dir, cleanup } = tempDir('kill-norestart');
    try {
      const job = writeJob(dir, chaosJob('memory', { rate: 20_000, attempts: 0 }));
      const run = startWeir(['run', job, '--quiet'], dir);
      // The task process is running records once the sink has opened its first transaction.
      await waitFor(() => sinkStarted(join(dir, 'out')), 'the sink to open a transaction');
      const kids = childPids(run.child.pid!);
      assert.equal(kids.length, 1, 'one task process');
      process.kill(kids[0], 'SIGKILL');
      const r = await run.result;
      assert.equal(r.code, 1);
      assert.match(r.stderr, /failed: the task process killed by SIGKILL; restarts are disabled/);
      assert.doesNotMatch(r.stderr, /\n\s+at /);
    } finally {
      cleanup();
    }
  },
);

test(
  'crash after checkpoint completion and before commit: --resume commits the pending transactions exactly once',
  { timeout: 90_000 },
  async () => {
    const { dir, cleanup } = tempDir('precommit-crash');
    try {
      const job = writeJob(dir, chaosJob('fs', { rate: 50_000 }));
      const run = startWeirWithFaults(['run', job, '--quiet'], dir, { killHostBeforeNotify: 4 });
      const tasks = watchTaskPids(run);
      const crashed = await run.result;
      assert.equal(crashed.signal, 'SIGKILL', crashed.stderr);
      const out = join(dir, 'out');
      // Checkpoint 4 is complete (metadata written) but its transactions are only pre-committed.
      assert.ok(existsSync(join(dir, 'checkpoints', 'chaos-fs', 'chk-4', '_metadata')));
      const pending = readdirSync(out).filter((n) => n.startsWith('.pending-'));
      assert.ok(pending.length > 0, 'pre-committed transactions are waiting');
      assert.ok(!readdirSync(out).some((n) => /-000004\.jsonl$/.test(n)), 'checkpoint 4 files are not committed yet');
      await waitForExit(tasks); // the orphaned task process notices its host is gone
      const r = await runWeir(['run', job, '--quiet', '--resume'], dir);
      assert.equal(r.code, 0, r.stderr);
      assert.ok(
        readdirSync(out).some((n) => /-000004\.jsonl$/.test(n)),
        'checkpoint 4 files committed on restore',
      );
      assertOutputEqualsReference(out);
    } finally {
      cleanup();
    }
  },
);

test(
  'memory backend: --resume is refused with a clear message and touches no output',
  { timeout: 60_000 },
  async () => {
    const { dir, cleanup } = tempDir('memory-resume');
    try {
      const job = writeJob(dir, chaosJob('memory', { rate: 50_000 }));
      const run = startWeir(['run', job, '--quiet'], dir);
      const tasks = watchTaskPids(run);
      await waitFor(() => sinkStarted(join(dir, 'out')), 'the sink to open a transaction');
      run.child.kill('SIGKILL');
      await run.result;
      await waitForExit(tasks); // nothing writes the output any more
      const before = listing(join(dir, 'out'));
      const r = await runWeir(['run', job, '--resume'], dir);
      assert.equal(r.code, 1);
      assert.match(
        r.stderr,
        /cannot --resume job 'chaos-memory': the memory state backend keeps checkpoints only in the memory/,
      );
      assert.deepEqual(listing(join(dir, 'out')), before);
    } finally {
      cleanup();
    }
  },
);

test(
  'SIGINT stops with a savepoint and prints its path; --from continues to the exact reference',
  { timeout: 90_000 },
  async () => {
    const { dir, cleanup } = tempDir('savepoint');
    try {
      const job = writeJob(dir, chaosJob('fs', { rate: 40_000 }));
      const run = startWeir(['run', job], dir);
      // A committed file means a checkpoint completed, so the run is up and its Ctrl-C handler too.
      await waitFor(() => readCommitted(join(dir, 'out')).length > 0, 'a committed checkpoint');
      run.child.kill('SIGINT');
      const r = await run.result;
      assert.equal(r.code, 0, r.stderr);
      const m = /savepoint: (\S+)/.exec(r.stderr);
      assert.ok(m, r.stderr);
      assert.ok(existsSync(join(m[1], '_metadata')));
      assert.ok(readCommitted(join(dir, 'out')).length > 0, 'output up to the savepoint is committed');
      const r2 = await runWeir(['run', job, '--quiet', '--from', m[1]], dir);
      assert.equal(r2.code, 0, r2.stderr);
      assertOutputEqualsReference(join(dir, 'out'));
    } finally {
      cleanup();
    }
  },
);

test(
  'restore with a different parallelism: savepoint at 2, continue at 3 (generator and keyed state re-split)',
  { timeout: 90_000 },
  async () => {
    const { dir, cleanup } = tempDir('rescale');
    try {
      const job = writeJob(dir, chaosJob('fs', { rate: 40_000 }));
      const run = startWeir(['run', job], dir);
      // A committed file means a checkpoint completed, so the run is up and its Ctrl-C handler too.
      await waitFor(() => readCommitted(join(dir, 'out')).length > 0, 'a committed checkpoint');
      run.child.kill('SIGINT');
      const r = await run.result;
      assert.equal(r.code, 0, r.stderr);
      const m = /savepoint: (\S+)/.exec(r.stderr);
      assert.ok(m, r.stderr);
      const r2 = await runWeir(['run', job, '--quiet', '--from', m[1], '--parallelism', '3'], dir);
      assert.equal(r2.code, 0, r2.stderr);
      assertOutputEqualsReference(join(dir, 'out'));
    } finally {
      cleanup();
    }
  },
);

test(
  'memory backend: a snapshot over memoryStateLimit fails the checkpoint naming operator, size and limit',
  { timeout: 60_000 },
  async () => {
    const { dir, cleanup } = tempDir('memory-limit');
    try {
      const doc = chaosJob('memory', { rate: 100_000, attempts: 0 }) as ReturnType<typeof chaosJob> & {
        settings: Record<string, unknown>;
      };
      doc.settings.memoryStateLimit = '16kb';
      (doc.nodes[0].config as Record<string, unknown>).keys = 5000; // ~1000 keys per open 10 s window: far over 16 KB
      const r = await runWeir(['run', writeJob(dir, doc)], dir);
      assert.equal(r.code, 1);
      assert.match(r.stderr, /checkpoint \d+ failed: .*'win'.*\d+ bytes.*memoryStateLimit.*'fs' or 'rocksdb'/);
      assert.doesNotMatch(r.stderr, /\n\s+at /);
    } finally {
      cleanup();
    }
  },
);

test('a busy task process exits as soon as its host dies (no orphan keeps running)', { timeout: 60_000 }, async () => {
  const { dir, cleanup } = tempDir('orphan');
  try {
    const job = writeJob(dir, {
      format: 'weir.job/v1',
      name: 'busy',
      nodes: [
        { id: 'gen', type: 'source.generator', config: { keys: 100, eventTime: { field: 'ts' } } },
        {
          id: 'w',
          type: 'window',
          config: { keyBy: 'key', window: { kind: 'tumbling', size: '1s' }, aggregates: 'COUNT(*) AS n' },
        },
        { id: 'out', type: 'sink.file', config: { path: 'out', format: 'jsonl' } },
      ],
      edges: [
        { from: 'gen', to: 'w' },
        { from: 'w', to: 'out' },
      ],
    });
    const run = startWeir(['run', job, '--quiet'], dir);
    // Busy: unthrottled, its sink already writing.
    await waitFor(() => sinkStarted(join(dir, 'out')), 'the sink to open a transaction');
    const kids = childPids(run.child.pid!);
    assert.equal(kids.length, 1);
    run.child.kill('SIGKILL');
    await run.result;
    const exited = await waitForExit(kids, 5000).then(
      () => true,
      () => false,
    );
    if (!exited) process.kill(kids[0], 'SIGKILL');
    assert.equal(exited, true, 'the orphaned task process exited by itself');
  } finally {
    cleanup();
  }
});
