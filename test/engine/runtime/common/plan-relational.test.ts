/** The planner for the relational nodes: each join input keyed by its own key, toPort -> input index, changelog routing. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateJob } from '../../../../engine/graph/validate.ts';
import { planJob } from '../../../../engine/runtime/common/plan.ts';
import { applyRunOverrides } from '../../../../engine/graph/run-overrides.ts';

function plan(doc: object, p?: number) {
  const v = validateJob(p === undefined ? doc : applyRunOverrides(doc, { parallelism: p }));
  assert.ok(v.ok, JSON.stringify(!v.ok && v.problems));
  return planJob(v.job);
}

const job = {
  format: 'weir.job/v1',
  name: 'rel',
  settings: { parallelism: 2 },
  nodes: [
    { id: 'a', type: 'source.generator', config: { count: 10 } },
    { id: 'b', type: 'source.generator', config: { count: 10 } },
    {
      id: 'j',
      type: 'join.interval',
      // Keys of one type (BIGINT = BIGINT: a STRING key never equals a BIGINT one), named apart per side.
      config: { leftKey: 'value', rightKey: 'seq', lower: '-1s', upper: '1s', select: 'L.key, R.seq' },
    },
    { id: 'agg', type: 'aggregate', config: { keyBy: 'key', aggregates: 'COUNT(*) AS n' } },
    { id: 'shape', type: 'map', config: { select: 'key, n' } },
    { id: 'out', type: 'sink.file', parallelism: 1, config: { path: 'o', format: 'changelog-json' } },
    { id: 'pv', type: 'sink.preview', config: {} },
  ],
  // The right edge is listed first: the input index still follows the port, not the order.
  edges: [
    { from: 'b', to: 'j', toPort: 'right' },
    { from: 'a', to: 'j', toPort: 'left' },
    { from: 'j', to: 'agg' },
    { from: 'agg', to: 'shape' },
    { from: 'shape', to: 'out' },
    { from: 'agg', to: 'pv' },
  ],
};

test('join inputs hash by their own key, left is input 0 and right input 1', () => {
  const p = plan(job);
  const into = (to: string) => p.edges.filter((e) => e.toNode === to);
  const left = into('j').find((e) => e.fromNode === 'a')!;
  const right = into('j').find((e) => e.fromNode === 'b')!;
  assert.deepEqual([left.partitioning, left.keyBy, left.inputIndex], ['hash', 'value', 0]);
  assert.deepEqual([right.partitioning, right.keyBy, right.inputIndex], ['hash', 'seq', 1]);
  assert.deepEqual(
    into('agg').map((e) => [e.partitioning, e.keyBy]),
    [['hash', 'key']],
  );
});

test('a changelog into another parallelism goes to subtask 0; equal parallelism stays point-to-point', () => {
  const p = plan(job);
  const edge = (from: string, to: string) => p.edges.find((e) => e.fromNode === from && e.toNode === to);
  assert.equal(edge('shape', 'out')?.partitioning, 'global', 'changes of a key must stay in order: never round-robin');
  // agg -> shape and agg -> pv: fan-out from agg, equal parallelism: forward
  assert.equal(edge('agg', 'pv')?.partitioning, 'forward');
  // Keyed operators chain only at parallelism 1.
  const one = plan(job, 1);
  assert.ok(one.chains.some((c) => c.nodes.includes('j') && c.nodes.includes('agg')));
});
