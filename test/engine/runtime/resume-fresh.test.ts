/**
 * `weir run --resume` when the previous run died before its first checkpoint completed: nothing of
 * it was committed, so the job starts over (its temp files aborted) instead of refusing - a crash
 * at any moment must be recoverable with the same command. Without checkpointing it refuses.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readCommitted, runWeir, tempDir, writeJob } from '../../support/run-helpers.ts';

function job(checkpointing: boolean) {
  return {
    format: 'weir.job/v1',
    name: 'resume-fresh',
    settings: { stateBackend: 'fs', ...(checkpointing ? { checkpointing: { interval: '200ms', dir: 'ck' } } : {}) },
    nodes: [
      {
        id: 'g',
        type: 'source.generator',
        config: { seed: 3, count: 5000, keys: 4, eventTime: { field: 'ts', maxOutOfOrderness: '100ms' } },
      },
      {
        id: 'w',
        type: 'window',
        config: { keyBy: 'key', window: { kind: 'tumbling', size: '5s' }, aggregates: 'COUNT(*) AS n' },
      },
      { id: 'o', type: 'sink.file', config: { path: 'out', format: 'jsonl' } },
    ],
    edges: [
      { from: 'g', to: 'w' },
      { from: 'w', to: 'o' },
    ],
  };
}

test(
  "--resume with no completed checkpoint starts over, aborting the dead run's temp files",
  { timeout: 60_000 },
  async () => {
    const { dir, cleanup } = tempDir('resume-fresh');
    try {
      // What a run killed before its first checkpoint leaves behind: an open transaction only.
      mkdirSync(join(dir, 'out', '.pending-deadbeef-0-1'), { recursive: true });
      writeFileSync(join(dir, 'out', '.pending-deadbeef-0-1', 'part'), '{"half":"written"}\n');
      const r = await runWeir(['run', writeJob(dir, job(true)), '--resume'], dir);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, /nothing to resume yet: job 'resume-fresh' has no completed checkpoint/);
      const rows = readCommitted(join(dir, 'out')).map((l) => JSON.parse(l) as { n: number });
      assert.equal(
        rows.reduce((s, x) => s + x.n, 0),
        5000,
      );
      assert.deepEqual(
        readdirSync(join(dir, 'out')).filter((n) => n.startsWith('.pending-')),
        [],
      );
    } finally {
      cleanup();
    }
  },
);

test('--resume of a job without checkpointing refuses and touches nothing', { timeout: 60_000 }, async () => {
  const { dir, cleanup } = tempDir('resume-nockpt');
  try {
    const r = await runWeir(['run', writeJob(dir, job(false)), '--resume'], dir);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /checkpointing is off, so there is no checkpoint to resume from/);
    assert.doesNotMatch(r.stderr, /\n\s+at /);
    assert.equal(existsSync(join(dir, 'out')), false);
  } finally {
    cleanup();
  }
});
