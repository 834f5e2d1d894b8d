/** sourceReadColumns: what a file source's rows must carry, or null when something needs whole rows. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sourceReadColumns } from '../../../engine/graph/read-columns.ts';
import { validateJob } from '../../../engine/graph/validate.ts';
import type { NormalizedJob } from '../../../engine/graph/types.ts';

function job(nodes: unknown[], edges: Array<[string, string, string?]>): NormalizedJob {
  const v = validateJob(
    {
      format: 'weir.job/v1',
      name: 't',
      nodes: [
        {
          id: 'src',
          type: 'source.file',
          config: { path: 'in.jsonl', format: 'jsonl', eventTime: { field: 'ts' } },
        },
        ...nodes,
      ],
      edges: edges.map(([from, to, fromPort]) => ({ from, to, ...(fromPort ? { fromPort } : {}) })),
    },
    { baseDir: '/tmp' },
  );
  if (!v.ok) throw new Error(JSON.stringify(v.problems));
  return v.job;
}

const window = (id: string) => ({
  id,
  type: 'window',
  config: {
    keyBy: 'category',
    window: { kind: 'tumbling', size: 1000 },
    aggregates: 'COUNT(*) AS n, SUM(amount) AS total',
  },
});
const sink = (id: string) => ({ id, type: 'sink.file', config: { path: id, format: 'jsonl' } });

test('filter then window: the filter, key, aggregate and event-time columns', () => {
  const j = job(
    [{ id: 'f', type: 'filter', config: { where: "region = 'eu'" } }, window('w'), sink('out')],
    [
      ['src', 'f'],
      ['f', 'w'],
      ['w', 'out'],
    ],
  );
  assert.deepEqual(sourceReadColumns(j, 'src')?.sort(), ['amount', 'category', 'region', 'ts']);
});

test('a map without * reads only what its select names', () => {
  const j = job(
    [{ id: 'm', type: 'map', config: { select: 'user, amount * 2 AS double' } }, sink('out')],
    [
      ['src', 'm'],
      ['m', 'out'],
    ],
  );
  assert.deepEqual(sourceReadColumns(j, 'src')?.sort(), ['amount', 'ts', 'user']);
});

test('whole rows wherever a row may leave as it is: a sink after a filter, a late port, a map with *', () => {
  const viaFilter = job(
    [{ id: 'f', type: 'filter', config: { where: 'amount > 1' } }, sink('out')],
    [
      ['src', 'f'],
      ['f', 'out'],
    ],
  );
  assert.equal(sourceReadColumns(viaFilter, 'src'), null);
  const late = job(
    [window('w'), sink('out'), sink('late')],
    [
      ['src', 'w'],
      ['w', 'out'],
      ['w', 'late', 'late'],
    ],
  );
  assert.equal(sourceReadColumns(late, 'src'), null);
  const star = job(
    [{ id: 'm', type: 'map', config: { select: '*, amount * 2 AS double' } }, sink('out')],
    [
      ['src', 'm'],
      ['m', 'out'],
    ],
  );
  assert.equal(sourceReadColumns(star, 'src'), null);
});
