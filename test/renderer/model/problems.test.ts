import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeProblems, indexProblems } from '../../../renderer/src/model/problems.ts';
import { addNode, addEdge, emptyJob } from '../../../renderer/src/model/ops.ts';

test('problems are grouped per node (by id or by nodes[i] path), settings and the rest', () => {
  let job = addNode(emptyJob(), 'source.generator', { x: 0, y: 0 }).job;
  job = addNode(job, 'filter', { x: 0, y: 0 }).job;
  const idx = indexProblems(job, [
    { path: 'nodes[1].config.where', message: 'bad' },
    { path: 'nodes[0]', message: 'dangling', nodeId: 'generator-1', severity: 'warning' },
    { path: 'settings.checkpointing.interval', message: 'must be greater than 0' },
    { path: 'name', message: 'must not be empty' },
  ]);
  assert.deepEqual(
    idx.byNode.get('filter-1')?.map((p) => p.message),
    ['bad'],
  );
  assert.deepEqual(
    idx.byNode.get('generator-1')?.map((p) => p.message),
    ['dangling'],
  );
  assert.equal(idx.settings.length, 1);
  assert.equal(idx.other.length, 1);
});

test("the live problems are the engine validator's, with an expression error at its column", () => {
  let job = addNode(emptyJob('j'), 'source.generator', { x: 0, y: 0 }).job;
  job = addNode(job, 'filter', { x: 0, y: 0 }).job;
  job = addNode(job, 'sink.preview', { x: 0, y: 0 }).job;
  job = addEdge(addEdge(job, { from: 'generator-1', to: 'filter-1' }), { from: 'filter-1', to: 'preview-1' });
  job = {
    ...job,
    nodes: job.nodes.map((n) => (n.id === 'filter-1' ? { ...n, config: { where: 'seq >> 1' } } : n)),
  } as typeof job;
  const p = computeProblems(job);
  const msgs = p.byNode.get('filter-1')?.map((x) => `${x.path}: ${x.message}`) ?? [];
  assert.ok(
    msgs.some((m) => /^nodes\[1\]\.config\.where: .*column 6/.test(m)),
    msgs.join('\n'),
  );
  assert.equal(p.byNode.get('generator-1'), undefined);
});
