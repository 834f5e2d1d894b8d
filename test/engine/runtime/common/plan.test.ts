/** The planner: chaining rules, partitioning per edge, key-group ranges. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateJob } from '../../../../engine/graph/validate.ts';
import { applyRunOverrides } from '../../../../engine/graph/run-overrides.ts';
import { planJob, operatorSubtaskCount, keyGroupRangeOf } from '../../../../engine/runtime/common/plan.ts';

/** `p`: a run's parallelism override, applied as weir run and the host apply it. */
function plan(doc: object, p?: number) {
  const v = validateJob(applyRunOverrides(doc, { parallelism: p }));
  assert.ok(v.ok, JSON.stringify(!v.ok && v.problems));
  return planJob(v.job);
}

const base = {
  format: 'weir.job/v1',
  name: 'p',
  settings: { parallelism: 2 },
  nodes: [
    { id: 'gen', type: 'source.generator', config: { count: 10, eventTime: { field: 'ts' } } },
    { id: 'f', type: 'filter', config: { where: 'value > 1' } },
    { id: 'm', type: 'map', config: { select: 'key, value' } },
    {
      id: 'w',
      type: 'window',
      config: { keyBy: 'key', window: { kind: 'tumbling', size: '1s' }, aggregates: 'COUNT(*) AS n' },
    },
    {
      id: 'g',
      type: 'window',
      parallelism: 1,
      config: { window: { kind: 'tumbling', size: '1s' }, aggregates: 'COUNT(*) AS n' },
    },
    { id: 'out', type: 'sink.file', config: { path: 'o', format: 'jsonl' } },
    { id: 'pv', type: 'sink.preview', config: {} },
  ],
  edges: [
    { from: 'gen', to: 'f' },
    { from: 'f', to: 'm' },
    { from: 'm', to: 'w' },
    { from: 'w', to: 'out' },
    { from: 'm', to: 'g' },
    { from: 'g', to: 'pv' },
  ],
};

test('forward edges of equal parallelism chain; keyBy, global and fan-out edges do not', () => {
  const p = plan(base);
  assert.deepEqual(
    p.chains.map((c) => c.nodes),
    [['gen', 'f', 'm'], ['w', 'out'], ['g'], ['pv']],
  );
  const byTarget = Object.fromEntries(p.edges.map((e) => [e.toNode, e.partitioning]));
  assert.deepEqual(byTarget, { w: 'hash', g: 'global', pv: 'rebalance' });
  assert.equal(p.edges.find((e) => e.toNode === 'w')!.keyBy, 'key');
  assert.equal(operatorSubtaskCount(p), 3 * 2 + 2 * 2 + 1 + 2);
});

test('different parallelism rebalances; --parallelism is the default of every node without its own', () => {
  const doc = structuredClone(base);
  (doc.nodes[2] as { parallelism?: number }).parallelism = 3;
  const p = plan(doc);
  assert.equal(p.edges.find((e) => e.toNode === 'm')!.partitioning, 'rebalance');
  const q = plan(base, 4);
  assert.deepEqual(
    q.nodes.filter((n) => n.parallelism !== 4).map((n) => [n.id, n.parallelism]),
    [['g', 1]],
  );
});

test('key-group ranges are contiguous and cover every group once', () => {
  const p = plan(base, 3);
  const ranges = [0, 1, 2].map((s) => keyGroupRangeOf(p, 'w', s));
  assert.equal(ranges[0].start, 0);
  assert.equal(ranges[2].end, p.maxParallelism - 1);
  assert.equal(ranges[1].start, ranges[0].end + 1);
  assert.equal(ranges[2].start, ranges[1].end + 1);
});

test('union inputs keep their input index', () => {
  const p = plan({
    format: 'weir.job/v1',
    name: 'u',
    nodes: [
      { id: 'a', type: 'source.generator', config: { count: 1 } },
      { id: 'b', type: 'source.generator', config: { count: 1 } },
      { id: 'u', type: 'union', config: {} },
      { id: 'pv', type: 'sink.preview', config: {} },
    ],
    edges: [
      { from: 'a', to: 'u' },
      { from: 'b', to: 'u' },
      { from: 'u', to: 'pv' },
    ],
  });
  assert.deepEqual(
    p.edges.map((e) => [e.fromNode, e.inputIndex, e.partitioning]),
    [
      ['a', 0, 'forward'],
      ['b', 1, 'forward'],
    ],
  );
  assert.deepEqual(
    p.chains.map((c) => c.nodes),
    [['a'], ['b'], ['u', 'pv']],
  );
});
