import { test } from 'node:test';
import assert from 'node:assert/strict';
import { edgeSchema, inputColumnTypes, inputSchemas } from '../../../renderer/src/model/schemas.ts';
import { addNode, addEdge, emptyJob } from '../../../renderer/src/model/ops.ts';
import type { JobDocument } from '../../../engine/graph/types.ts';

function withConfig(job: JobDocument, id: string, config: Record<string, unknown>): JobDocument {
  return { ...job, nodes: job.nodes.map((n) => (n.id === id ? { ...n, config } : n)) } as JobDocument;
}

/** generator -> filter -> aggregate -> preview. */
function chain(): JobDocument {
  let job = addNode(emptyJob('j'), 'source.generator', { x: 0, y: 0 }).job;
  job = addNode(job, 'filter', { x: 0, y: 0 }).job;
  job = addNode(job, 'aggregate', { x: 0, y: 0 }).job;
  job = addNode(job, 'sink.preview', { x: 0, y: 0 }).job;
  job = addEdge(job, { from: 'generator-1', to: 'filter-1' });
  job = addEdge(job, { from: 'filter-1', to: 'aggregate-1' });
  job = addEdge(job, { from: 'aggregate-1', to: 'preview-1' });
  job = withConfig(job, 'generator-1', { count: 10, rate: 10, eventTime: { field: 'ts', maxOutOfOrderness: '1s' } });
  job = withConfig(job, 'filter-1', { where: 'value > 1' });
  return withConfig(job, 'aggregate-1', { keyBy: 'key', aggregates: 'COUNT(*) AS n, SUM(value) AS total' });
}

test("an edge's schema: the source's typed columns, its rowtime, append-only", () => {
  const job = chain();
  const s = edgeSchema(job, job.edges[0]);
  assert.equal(s.changelog, false);
  const byName = new Map(s.columns?.map((c) => [c.name, c]));
  assert.deepEqual([...byName.keys()], ['seq', 'key', 'value', 'ts']);
  assert.equal(byName.get('key')?.type, 'STRING');
  assert.equal(byName.get('ts')?.time, 'rowtime');
  assert.equal(byName.get('key')?.time, null);
});

test("an aggregate's output is a changelog with its keys and aggregates, COUNT NOT NULL", () => {
  const job = chain();
  const s = edgeSchema(job, job.edges[2]);
  assert.equal(s.changelog, true);
  const byName = new Map(s.columns?.map((c) => [c.name, c]));
  assert.deepEqual([...byName.keys()], ['key', 'n', 'total']);
  assert.equal(byName.get('n')?.nullable, false);
  assert.equal(byName.get('total')?.nullable, true);
  assert.equal(inputSchemas(job, 'preview-1')[0].schema, s);
});

test('a file source without declared or sampled columns gives an unknown schema, not a guess', () => {
  let job = addNode(emptyJob('j'), 'source.file', { x: 0, y: 0 }).job;
  job = addNode(job, 'filter', { x: 0, y: 0 }).job;
  job = addEdge(job, { from: 'file-source-1', to: 'filter-1' });
  job = withConfig(job, 'file-source-1', { path: 'nowhere.jsonl', format: 'jsonl' });
  assert.equal(edgeSchema(job, job.edges[0]).columns, null);
});

test("a join's fields know both inputs' types, plain and as L./R.", () => {
  let job = addNode(emptyJob('j'), 'source.generator', { x: 0, y: 0 }).job;
  job = addNode(job, 'source.file', { x: 0, y: 0 }).job;
  job = addNode(job, 'join', { x: 0, y: 0 }).job;
  job = withConfig(job, 'file-source-1', {
    path: 'c.jsonl',
    format: 'jsonl',
    columns: { id: 'STRING', country: 'STRING' },
  });
  job = {
    ...job,
    edges: [
      { from: 'generator-1', to: 'join-1', toPort: 'left' },
      { from: 'file-source-1', to: 'join-1', toPort: 'right' },
    ],
  };
  const types = inputColumnTypes(job, 'join-1');
  assert.equal(types.get('L.key'), 'STRING');
  assert.equal(types.get('R.country'), 'STRING');
  assert.equal(types.get('country'), 'STRING');
});

test('moving a node does not re-type (same shape, same schema object)', () => {
  const job = chain();
  const a = edgeSchema(job, job.edges[0]);
  const moved = { ...job, nodes: job.nodes.map((n) => ({ ...n, position: { x: 5, y: 5 } })) };
  assert.equal(edgeSchema(moved, moved.edges[0]), a);
});
