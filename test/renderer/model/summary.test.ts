import { test } from 'node:test';
import assert from 'node:assert/strict';
import { summarize } from '../../../renderer/src/model/summary.ts';
import { splitTopLevel } from '../../../engine/graph/expressions.ts';
import type { JobNode } from '../../../engine/graph/types.ts';

test('window summary reads like the issue example', () => {
  const n = {
    id: 'w',
    type: 'window',
    config: {
      keyBy: 'user',
      window: { kind: 'tumbling', size: '10s' },
      aggregates: 'COUNT(*) AS n, SUM(amount) AS total',
    },
  } as JobNode;
  assert.equal(summarize(n), 'tumbling 10s · COUNT(*), SUM(amount) by user');
});

test('summaries never throw on half-filled configs', () => {
  for (const type of [
    'source.file',
    'source.generator',
    'filter',
    'map',
    'union',
    'window',
    'sink.file',
    'sink.preview',
  ]) {
    assert.equal(typeof summarize({ id: 'x', type, config: {} } as JobNode), 'string');
    assert.equal(typeof summarize({ id: 'x', type } as unknown as JobNode), 'string');
  }
  assert.equal(summarize({ id: 'f', type: 'filter', config: { where: 'amount > 10' } }), 'where amount > 10');
});

test('splitTopLevel keeps commas inside calls and quotes', () => {
  assert.deepEqual(splitTopLevel("COALESCE(a, b) AS x, 'a,b' AS s, c"), ['COALESCE(a, b) AS x', "'a,b' AS s", 'c']);
});
