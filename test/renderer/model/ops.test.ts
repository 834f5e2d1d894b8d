import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  emptyJob,
  addNode,
  addEdge,
  removeItems,
  moveNodes,
  updateNode,
  renameNodeId,
  setIn,
  edgeKey,
} from '../../../renderer/src/model/ops.ts';

test('addNode picks a free id per type and gives the default config', () => {
  let job = emptyJob();
  const a = addNode(job, 'filter', { x: 10.4, y: 20.6 });
  job = a.job;
  const b = addNode(job, 'filter', { x: 0, y: 0 });
  assert.equal(a.id, 'filter-1');
  assert.equal(b.id, 'filter-2');
  assert.deepEqual(a.job.nodes[0].position, { x: 10, y: 21 });
  assert.deepEqual(a.job.nodes[0].config, { where: '' });
});

test('removing a node removes its edges; unchanged parts keep their identity', () => {
  let job = emptyJob();
  for (const t of ['source.generator', 'filter', 'sink.preview'] as const) job = addNode(job, t, { x: 0, y: 0 }).job;
  job = addEdge(job, { from: 'generator-1', to: 'filter-1' });
  job = addEdge(job, { from: 'filter-1', to: 'preview-1', fromPort: 'out' });
  assert.deepEqual(job.edges[1], { from: 'filter-1', to: 'preview-1' }, 'default port is not written');
  assert.equal(addEdge(job, { from: 'generator-1', to: 'filter-1' }), job, 'duplicate edge ignored');
  const gen = job.nodes[0];
  const after = removeItems(job, ['filter-1']);
  assert.deepEqual(
    after.nodes.map((n) => n.id),
    ['generator-1', 'preview-1'],
  );
  assert.equal(after.edges.length, 0);
  assert.equal(after.nodes[0], gen);
  const e2 = removeItems(job, [], [edgeKey({ from: 'generator-1', to: 'filter-1' })]);
  assert.equal(e2.edges.length, 1);
  assert.equal(removeItems(job, ['nope']), job);
});

test('moveNodes rounds and returns the same job when nothing moved', () => {
  let job = addNode(emptyJob(), 'map', { x: 5, y: 5 }).job;
  assert.equal(moveNodes(job, new Map([['map-1', { x: 5.2, y: 4.9 }]])), job);
  job = moveNodes(job, new Map([['map-1', { x: 50.7, y: 5 }]]));
  assert.deepEqual(job.nodes[0].position, { x: 51, y: 5 });
});

test('updateNode, renameNodeId and setIn', () => {
  let job = addNode(emptyJob(), 'source.generator', { x: 0, y: 0 }).job;
  job = addNode(job, 'sink.preview', { x: 0, y: 0 }).job;
  job = addEdge(job, { from: 'generator-1', to: 'preview-1' });
  job = updateNode(job, 'generator-1', { parallelism: 2 });
  assert.equal((job.nodes[0] as { parallelism?: number }).parallelism, 2);
  job = updateNode(job, 'generator-1', { parallelism: undefined });
  assert.equal('parallelism' in job.nodes[0], false);
  job = renameNodeId(job, 'generator-1', 'orders');
  assert.deepEqual(job.edges[0], { from: 'orders', to: 'preview-1' });
  assert.equal(renameNodeId(job, 'orders', 'preview-1'), job, 'taken id refused');
  const cfg = setIn({ a: 1, eventTime: { field: 'ts' } }, ['eventTime', 'maxOutOfOrderness'], '2s');
  assert.deepEqual(cfg, { a: 1, eventTime: { field: 'ts', maxOutOfOrderness: '2s' } });
  assert.deepEqual(setIn({ e: { x: 1 } }, ['e', 'x'], undefined), {});
});

test('upstream columns: generator columns, map aliases, window outputs, names used by a filter', async () => {
  const { inputColumns } = await import('../../../renderer/src/model/columns.ts');
  let job = emptyJob();
  for (const t of ['source.file', 'filter', 'window', 'map', 'sink.preview'] as const)
    job = addNode(job, t, { x: 0, y: 0 }).job;
  job = {
    ...job,
    nodes: job.nodes.map((n) =>
      n.id === 'filter-1'
        ? { ...n, config: { where: 'amount >= 10' } }
        : n.id === 'window-1'
          ? {
              ...n,
              config: {
                keyBy: 'user',
                window: { kind: 'tumbling', size: '10s' },
                aggregates: 'COUNT(*) AS n, SUM(amount) AS total',
              },
            }
          : n.id === 'map-1'
            ? { ...n, config: { select: 'user, total / n AS avg' } }
            : n,
    ),
  } as typeof job;
  job = addEdge(
    addEdge(addEdge(addEdge(job, { from: 'file-source-1', to: 'filter-1' }), { from: 'filter-1', to: 'window-1' }), {
      from: 'window-1',
      to: 'map-1',
    }),
    { from: 'map-1', to: 'preview-1' },
  );
  assert.deepEqual(inputColumns(job, 'window-1'), ['amount']);
  assert.deepEqual(inputColumns(job, 'map-1'), ['user', 'window_start', 'window_end', 'n', 'total']);
  assert.deepEqual(inputColumns(job, 'preview-1'), ['user', 'avg']);
});
