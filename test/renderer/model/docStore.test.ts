import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createDocStore, isDirty } from '../../../renderer/src/model/docStore.ts';
import { addNode, addEdge, moveNodes, removeItems, updateNode, setIn } from '../../../renderer/src/model/ops.ts';

test('add, connect, config edit, delete: each is one undo step; undo to saved clears dirty', () => {
  const store = createDocStore();
  const s = () => store.getState();
  s().markSaved('a.json');
  assert.equal(isDirty(s()), false);
  s().commit('add', (j) => addNode(j, 'source.generator', { x: 0, y: 0 }).job);
  s().commit('add', (j) => addNode(j, 'filter', { x: 200, y: 0 }).job, { select: ['filter-1'] });
  assert.deepEqual([...s().selectedNodes], ['filter-1']);
  s().commit('connect', (j) => addEdge(j, { from: 'generator-1', to: 'filter-1' }));
  assert.ok(s().problems.byNode.get('filter-1')?.length, 'empty where is a problem');
  s().commit('edit', (j) => updateNode(j, 'filter-1', { config: setIn(j.nodes[1].config, ['where'], 'seq > 1') }), {
    coalesceKey: 'f.where',
  });
  assert.deepEqual(
    s()
      .problems.byNode.get('filter-1')
      ?.filter((p) => p.severity !== 'warning')
      .map((p) => p.message),
    [],
    'only the dangling-output warning is left',
  );
  s().commit('delete', (j) => removeItems(j, ['filter-1']));
  assert.equal(s().selectedNodes.size, 0, 'selection follows deletion');
  assert.equal(s().job.edges.length, 0);
  s().undo();
  assert.equal(s().job.edges.length, 1);
  s().undo();
  assert.equal((s().job.nodes[1].config as { where: string }).where, '');
  s().undo();
  s().undo();
  s().undo();
  assert.equal(s().job.nodes.length, 0);
  assert.equal(isDirty(s()), false);
  s().redo();
  assert.equal(s().job.nodes.length, 1);
  assert.equal(isDirty(s()), true);
});

test('a drag previews positions without steps and records one step at the end', () => {
  const store = createDocStore();
  const s = () => store.getState();
  s().commit('add', (j) => addNode(j, 'map', { x: 0, y: 0 }).job);
  const before = s().history.past.length;
  for (let x = 1; x <= 30; x++) s().preview((j) => moveNodes(j, new Map([['map-1', { x, y: 0 }]])));
  assert.equal(s().history.past.length, before);
  s().commitDrag('move');
  assert.equal(s().history.past.length, before + 1);
  assert.deepEqual(s().job.nodes[0].position, { x: 30, y: 0 });
  s().undo();
  assert.deepEqual(s().job.nodes[0].position, { x: 0, y: 0 });
});
