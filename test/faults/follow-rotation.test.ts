/**
 * Issue 23, item 5, against a real `weir run`: a `follow` source whose file is rotated while the job
 * runs (truncated in place as `copytruncate` does, then replaced as logrotate's `create` does) goes
 * on like `tail -F`: the run's log says what happened, and every row written after each rotation is
 * committed by the sink exactly once. SIGTERM then stops the run with a savepoint.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, renameSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readCommitted, startWeir, tempDir, waitFor, writeJob } from '../support/run-helpers.ts';

const rows = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, i) => `${JSON.stringify({ v: from + i })}\n`).join('');

test('follow through truncation and replacement: every row written after a rotation is committed once', async () => {
  const { dir, cleanup } = tempDir('follow-rotation');
  const log = join(dir, 'app.log');
  writeFileSync(log, rows(0, 500));
  const job = writeJob(dir, {
    format: 'weir.job/v1',
    name: 'tail',
    settings: { parallelism: 1, stateBackend: 'fs', checkpointing: { interval: '100ms', dir: 'checkpoints' } },
    nodes: [
      { id: 'src', type: 'source.file', config: { path: 'app.log', format: 'jsonl', follow: true } },
      { id: 'out', type: 'sink.file', config: { path: 'out', format: 'jsonl' } },
    ],
    edges: [{ from: 'src', to: 'out' }],
  });
  const run = startWeir(['run', job], dir);
  const committed = () => readCommitted(join(dir, 'out')).map((l) => (JSON.parse(l) as { v: number }).v);
  try {
    await waitFor(() => committed().length >= 500, 'the first 500 rows committed');
    truncateSync(log, 0);
    appendFileSync(log, rows(500, 800));
    await waitFor(() => committed().length >= 800, 'the 300 rows written after the truncation');
    renameSync(log, join(dir, 'app.log.1'));
    writeFileSync(log, rows(800, 1100));
    await waitFor(() => committed().length >= 1100, 'the 300 rows of the new file');
    run.child.kill('SIGTERM');
    const r = await run.result;
    assert.equal(r.code, 0, r.stderr);
    const got = committed().sort((a, b) => a - b);
    assert.deepEqual(
      got,
      Array.from({ length: 1100 }, (_, i) => i),
      'each row exactly once',
    );
    assert.match(r.stdout + r.stderr, /app\.log: truncated to \d+ bytes after \d+ were read; reading it again/);
    assert.match(r.stdout + r.stderr, /app\.log: replaced by a new file \(inode \d+ -> \d+\)/);
  } finally {
    if (run.child.exitCode === null) run.child.kill('SIGKILL');
    await run.result;
    cleanup();
  }
});
