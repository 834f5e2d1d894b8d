/** The planner routes an upsert sink.postgres's input by its key; an append one stays chained. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateJob } from '../../../../engine/graph/validate.ts';
import { planJob } from '../../../../engine/runtime/common/plan.ts';

function plan(mode: 'append' | 'upsert', parallelism: number) {
  const v = validateJob({
    format: 'weir.job/v1',
    name: 'p',
    settings: { parallelism },
    nodes: [
      { id: 'gen', type: 'source.generator', config: { count: 10 } },
      { id: 'm', type: 'map', config: { select: 'key, value' } },
      {
        id: 'pg',
        type: 'sink.postgres',
        config: { url: 'postgresql://u@h/db', table: 't', mode, ...(mode === 'upsert' ? { key: 'key' } : {}) },
      },
    ],
    edges: [
      { from: 'gen', to: 'm' },
      { from: 'm', to: 'pg' },
    ],
  });
  assert.ok(v.ok, JSON.stringify(!v.ok && v.problems));
  return planJob(v.job);
}

test('upsert: each key reaches one sink subtask (hash by the key), so no two subtasks hold one row', () => {
  const p = plan('upsert', 2);
  const e = p.edges.find((x) => x.toNode === 'pg');
  assert.ok(e, 'the edge into the sink is a network edge, not chained');
  assert.equal(e.partitioning, 'hash');
  assert.equal(e.keyBy, 'key');
});

test('upsert at parallelism 1 and append at any parallelism stay chained', () => {
  assert.ok(plan('upsert', 1).chainedEdges.some((x) => x.toNode === 'pg'));
  assert.ok(plan('append', 2).chainedEdges.some((x) => x.toNode === 'pg'));
});
