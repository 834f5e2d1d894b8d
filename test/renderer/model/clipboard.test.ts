import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFragment, parseFragment, pasteFragment } from '../../../renderer/src/model/clipboard.ts';
import { addNode, addEdge, emptyJob } from '../../../renderer/src/model/ops.ts';

test('copy two connected nodes, paste into another document with fresh ids and the inner edge', () => {
  let a = emptyJob('a');
  for (const t of ['source.generator', 'filter', 'sink.preview'] as const) a = addNode(a, t, { x: 100, y: 50 }).job;
  a = addEdge(addEdge(a, { from: 'generator-1', to: 'filter-1' }), { from: 'filter-1', to: 'preview-1' });
  const frag = copyFragment(a, ['generator-1', 'filter-1'])!;
  assert.equal(frag.edges.length, 1, 'only edges inside the selection');
  const text = JSON.stringify(frag);
  const parsed = parseFragment(text)!;
  let b = addNode(emptyJob('b'), 'source.generator', { x: 0, y: 0 }).job;
  const r = pasteFragment(b, parsed);
  b = r.job;
  assert.deepEqual(r.ids, ['generator-2', 'filter-1']);
  assert.deepEqual(b.edges, [{ from: 'generator-2', to: 'filter-1' }]);
  assert.deepEqual(b.nodes[1].position, { x: 140, y: 90 });
  assert.equal(b.nodes[1].name, 'generator-2', 'a name equal to the id follows the id');
});

test('parseFragment ignores text that is not a fragment or a job', () => {
  assert.equal(parseFragment('hello'), null);
  assert.equal(parseFragment('{"format":"other","nodes":[]}'), null);
  assert.equal(parseFragment('{"format":"weir.fragment/v1","nodes":[{"id":"x","type":"bogus"}]}'), null);
  const job = parseFragment(
    JSON.stringify({
      format: 'weir.job/v1',
      name: 'j',
      nodes: [{ id: 'm', type: 'map', config: { select: '*' } }],
      edges: [],
    }),
  );
  assert.equal(job?.nodes.length, 1);
});
