/** `sink.kafka`'s own checks (engine/nodes/sink-kafka/definition.ts), through the job validator. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateJob } from '../../../engine/graph/validate.ts';

function problems(config: Record<string, unknown>, upstream: 'gen' | 'agg' | 'line' = 'gen'): string[] {
  const sources = {
    gen: [{ id: 'src', type: 'source.generator', config: { count: 10 } }],
    agg: [
      { id: 'src', type: 'source.generator', config: { count: 10 } },
      { id: 'agg', type: 'aggregate', config: { keyBy: 'key', aggregates: 'COUNT(*) AS n' } },
    ],
    line: [
      { id: 'src', type: 'source.generator', config: { count: 10 } },
      { id: 'agg', type: 'map', config: { select: 'key' } },
    ],
  }[upstream];
  const last = sources[sources.length - 1].id;
  const r = validateJob({
    format: 'weir.job/v1',
    name: 'k',
    nodes: [
      ...sources,
      {
        id: 'out',
        type: 'sink.kafka',
        config: { bootstrap: 'localhost:9092', topic: 't', format: 'jsonl', guarantee: 'exactly-once', ...config },
      },
    ],
    edges: [...(sources.length > 1 ? [{ from: 'src', to: 'agg' }] : []), { from: last, to: 'out' }],
  });
  return r.ok ? [] : r.problems.map((p) => `${p.path}: ${p.message}`);
}

test('a valid sink.kafka has no problem, keyed or not, and a keyed one takes a changelog', () => {
  assert.deepEqual(problems({}), []);
  assert.deepEqual(problems({ key: 'key', guarantee: 'at-least-once', format: 'csv' }), []);
  assert.deepEqual(problems({ key: 'key', transactionalIdPrefix: 'orders-tx' }, 'agg'), []);
  assert.deepEqual(problems({ format: 'raw' }, 'line'), []);
});

test('bad configs are named by their field', () => {
  const at = (list: string[], field: string) =>
    list.find((p) => p.startsWith(`nodes[1].config.${field}`)) ?? list.join('; ');
  assert.match(at(problems({ bootstrap: 'localhost' }), 'bootstrap'), /'localhost' is not host:port/);
  assert.match(at(problems({ key: 'nope' }), 'key'), /key column 'nope' not in the input/);
  assert.match(
    at(problems({ format: 'raw' }), 'format'),
    /raw writes the row's only column as the value, but the input has 4 columns/,
  );
  assert.match(
    at(problems({ guarantee: 'at-least-once', transactionalIdPrefix: 'x' }), 'transactionalIdPrefix'),
    /only used with guarantee "exactly-once"/,
  );
});

test('a changelog into an unkeyed sink.kafka is refused, saying to set a key', () => {
  const list = problems({}, 'agg');
  assert.ok(
    list.some((p) => /changelog/.test(p) && /config\.key/.test(p)),
    list.join('; '),
  );
});
