/** Static checks of `sink.postgres`, without a database (`weir validate`, the designer). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateJob } from '../../../engine/graph/validate.ts';

function job(sink: Record<string, unknown>, upstream: 'gen' | 'agg' = 'gen') {
  return {
    format: 'weir.job/v1',
    name: 'v',
    nodes: [
      { id: 'gen', type: 'source.generator', config: { count: 10 } },
      { id: 'agg', type: 'aggregate', config: { keyBy: 'key', aggregates: 'COUNT(*) AS n' } },
      { id: 'pg', type: 'sink.postgres', config: sink },
      { id: 'rest', type: 'sink.preview', config: {} },
    ],
    edges: [
      { from: 'gen', to: 'agg' },
      { from: upstream, to: 'pg' },
      // The aggregate always feeds somewhere, so only the sink's own input differs between cases.
      { from: upstream === 'gen' ? 'agg' : 'gen', to: 'rest' },
    ],
  };
}

function messages(doc: unknown): string[] {
  const r = validateJob(doc);
  return r.problems.filter((p) => p.severity !== 'warning').map((p) => `${p.path}: ${p.message}`);
}

const url = 'postgresql://weir@db:5432/shop';

test('a valid append sink and a valid upsert sink behind an aggregate', () => {
  assert.deepEqual(messages(job({ url, table: 'public.t', mode: 'append' })), []);
  assert.deepEqual(messages(job({ url, passwordEnv: 'PW', table: 't', mode: 'upsert', key: 'key' }, 'agg')), []);
});

test('a password in the URL, a bad URL and a bad table name are errors naming the field', () => {
  assert.deepEqual(messages(job({ url: 'postgresql://weir:secret@db/shop', table: 'a.b.c', mode: 'append' })), [
    'nodes[2].config.url: the URL carries a password; job files must not hold secrets: name an environment variable in passwordEnv instead',
    "nodes[2].config.table: expected 'schema.table' or 'table', got 'a.b.c'",
  ]);
  assert.deepEqual(messages(job({ url: 'mysql://db/shop', table: 't', mode: 'append' })), [
    "nodes[2].config.url: expected the scheme postgresql://, got 'mysql://'",
  ]);
  assert.deepEqual(messages(job({ url: 'postgresql://db', table: 't', mode: 'append' })), [
    'nodes[2].config.url: the URL names no database (postgresql://user@host:5432/db)',
  ]);
});

test('upsert needs a key that reaches the sink; append takes none', () => {
  assert.deepEqual(messages(job({ url, table: 't', mode: 'upsert' }, 'agg')), [
    'nodes[2].config.key: upsert mode needs a key: the columns of a primary key or unique constraint, e.g. "id"',
  ]);
  assert.deepEqual(messages(job({ url, table: 't', mode: 'upsert', key: 'key, nope' }, 'agg')), [
    "nodes[2].config.key: key column 'nope' not in the input (known: key, n)",
  ]);
  assert.deepEqual(messages(job({ url, table: 't', mode: 'append', key: 'seq' })), [
    'nodes[2].config.key: a key is only used in upsert mode: remove it or set mode to "upsert"',
  ]);
});

test('a changelog into an append sink is refused with the way out', () => {
  assert.deepEqual(messages(job({ url, table: 't', mode: 'append' }, 'agg')), [
    `edges[1]: sink.postgres 'pg' cannot take a changelog, but aggregate 'agg' produces one: set nodes[2].config.mode to "upsert" with a key (append mode would keep every retracted row)`,
  ]);
});

test('unknown fields and modes are schema errors', () => {
  const m = messages(job({ url, table: 't', mode: 'merge', password: 'x' }));
  assert.ok(
    m.some((x) => x.startsWith('nodes[2].config.mode')),
    m.join('\n'),
  );
  assert.ok(
    m.some((x) => x.includes('password')),
    m.join('\n'),
  );
});
