/**
 * Which records are late must not depend on how input channels happen to interleave.
 *
 * Two sources with out-of-order data beyond the watermark bound (so some records are late) feed a
 * union and a keyed window. The same data is run twice with opposite sources throttled, so the
 * union sees their batches in very different orders. Weir judges a record's lateness against the
 * watermark of the source subtask it came from as of the batch it was read in (carried with the
 * batch), which is the same in every interleaving; the committed output must be byte-identical.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readCommitted, runWeir, tempDir, writeJob } from '../../support/run-helpers.ts';

function job(out: string, slow: 'a' | 'b') {
  const gen = (seed: number, id: 'a' | 'b') => ({
    id,
    type: 'source.generator',
    config: {
      seed,
      count: 40_000,
      keys: 20,
      outOfOrderness: '3s',
      step: 10,
      ...(slow === id ? { rate: 40_000 } : {}),
      eventTime: { field: 'ts', maxOutOfOrderness: '500ms' },
    },
  });
  return {
    format: 'weir.job/v1',
    name: 'late-determinism',
    settings: { parallelism: 1 },
    nodes: [
      gen(1, 'a'),
      gen(2, 'b'),
      { id: 'u', type: 'union', config: {} },
      {
        id: 'w',
        type: 'window',
        config: {
          keyBy: 'key',
          window: { kind: 'tumbling', size: '2s' },
          aggregates: 'COUNT(*) AS n, SUM(value) AS s',
        },
      },
      { id: 'o', type: 'sink.file', config: { path: out, format: 'jsonl' } },
      { id: 'late', type: 'sink.file', config: { path: `${out}-late`, format: 'jsonl' } },
    ],
    edges: [
      { from: 'a', to: 'u' },
      { from: 'b', to: 'u' },
      { from: 'u', to: 'w' },
      { from: 'w', to: 'o' },
      { from: 'w', to: 'late', fromPort: 'late' },
    ],
  };
}

test("late records are the same whatever the interleaving of a union's inputs", { timeout: 120_000 }, async () => {
  const { dir, cleanup } = tempDir('late-determinism');
  try {
    const results: Array<{ out: string[]; late: string[] }> = [];
    for (const slow of ['a', 'b'] as const) {
      const r = await runWeir(['run', writeJob(dir, job(`out-${slow}`, slow), `job-${slow}.json`), '--quiet'], dir);
      assert.equal(r.code, 0, r.stderr);
      results.push({
        out: readCommitted(join(dir, `out-${slow}`)).sort(),
        late: readCommitted(join(dir, `out-${slow}-late`)).sort(),
      });
    }
    assert.ok(results[0].late.length > 100, `the data really has late records (${results[0].late.length})`);
    assert.equal(results[1].late.length, results[0].late.length);
    assert.deepEqual(results[1].late, results[0].late);
    assert.deepEqual(results[1].out, results[0].out);
  } finally {
    cleanup();
  }
});
