// Run overrides are applied to the document before validation (engine/graph/run-overrides.ts), so
// validation judges what runs; the CLI goes through the same function.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyRunOverrides } from '../../../engine/graph/run-overrides.ts';
import { validateJob } from '../../../engine/graph/validate.ts';
import { tempDir, weir, writeJob } from '../cli/cli-helpers.ts';

const doc = () => ({
  format: 'weir.job/v1',
  name: 'o',
  settings: { maxParallelism: 4, checkpointing: { interval: '1s', dir: 'ck' } },
  nodes: [
    { id: 'g', type: 'source.generator', config: { rate: 10, count: 10 } },
    { id: 's', type: 'sink.preview', parallelism: 1, config: {} },
  ],
  edges: [{ from: 'g', to: 's' }],
});

test('parallelism is the default for nodes without their own; the document is not mutated', () => {
  const original = doc();
  const v = validateJob(applyRunOverrides(original, { parallelism: 3 }));
  assert.ok(v.ok, JSON.stringify(v.ok ? [] : v.problems));
  assert.equal(v.job.settings.parallelism, 3);
  assert.deepEqual(
    v.job.nodes.map((n) => [n.id, n.parallelism]),
    [
      ['g', 3],
      ['s', 1],
    ],
  );
  assert.deepEqual(original, doc());
});

test('an override validation refuses is reported at its settings path', () => {
  const v = validateJob(applyRunOverrides(doc(), { parallelism: 8 }));
  assert.equal(v.ok, false);
  assert.ok(
    !v.ok &&
      v.problems.some((p) => p.path === 'settings.parallelism' && /8 is greater than maxParallelism 4/.test(p.message)),
  );
  const bad = validateJob(applyRunOverrides(doc(), { checkpointing: { interval: 'soon' } }));
  assert.ok(!bad.ok && bad.problems.some((p) => p.path === 'settings.checkpointing.interval'), JSON.stringify(bad));
});

test('backend and checkpointing overrides; interval null switches checkpointing off', () => {
  const v = validateJob(
    applyRunOverrides(doc(), {
      stateBackend: 'rocksdb',
      checkpointing: { interval: null, mode: 'at-least-once', incremental: true },
    }),
  );
  assert.ok(v.ok);
  assert.equal(v.job.settings.stateBackend, 'rocksdb');
  assert.equal(v.job.settings.checkpointing.interval, null);
  assert.equal(v.job.settings.checkpointing.mode, 'at-least-once');
  assert.equal(v.job.settings.checkpointing.incremental, true);
  assert.equal(v.job.settings.checkpointing.dir, 'ck', 'untouched settings stay');
  assert.equal(applyRunOverrides('not a job', { parallelism: 2 }), 'not a job');
});

test('weir run --parallelism above maxParallelism exits 2 with the validation problem, before running', async (t) => {
  const dir = tempDir(t);
  const r = await weir(['run', writeJob(dir, 'job.json', doc()), '--parallelism', '8']);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /settings\.parallelism: parallelism 8 is greater than maxParallelism 4/);
});
