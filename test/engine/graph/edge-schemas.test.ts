// edgeSchemas: every edge's columns with Flink SQL types, nullability, the time attribute and the
// changelog flag, before the run (issue 22).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { edgeSchemas, inputSchemas } from '../../../engine/graph/edge-schemas.ts';
import type { JobDocument, JobNode } from '../../../engine/graph/types.ts';

const sampled = (n: JobNode) =>
  n.type === 'source.file' && !n.config.columns
    ? { id: 'BIGINT', user: 'STRING', amount: 'BIGINT', ts: 'BIGINT' }
    : undefined;

function job(): JobDocument {
  return {
    format: 'weir.job/v1',
    name: 'schemas',
    nodes: [
      { id: 'src', type: 'source.file', config: { path: 'in.jsonl', format: 'jsonl', eventTime: { field: 'ts' } } },
      { id: 'f', type: 'filter', config: { where: 'amount > 1' } },
      { id: 'm', type: 'map', config: { select: 'user, CAST(amount AS DECIMAL(10, 2)) AS price, ts' } },
      {
        id: 'w',
        type: 'window',
        config: {
          keyBy: 'user',
          window: { kind: 'tumbling', size: '1s' },
          aggregates: 'COUNT(*) AS n, SUM(price) AS total',
        },
      },
      { id: 'a', type: 'aggregate', config: { keyBy: 'user', aggregates: 'COUNT(*) AS n' } },
      { id: 'o1', type: 'sink.preview', config: {} },
      { id: 'o2', type: 'sink.preview', config: {} },
    ],
    edges: [
      { from: 'src', to: 'f' },
      { from: 'f', to: 'm' },
      { from: 'm', to: 'w' },
      { from: 'w', to: 'o1' },
      { from: 'm', to: 'a' },
      { from: 'a', to: 'o2' },
    ],
  };
}

const brief = (s: ReturnType<typeof edgeSchemas>[number]) =>
  s.columns.map(
    (c) => `${c.name} ${c.type}${c.nullable ? '' : ' NOT NULL'}${c.timeAttribute ? ` *${c.timeAttribute}*` : ''}`,
  );

test('sampled source columns flow through filter, map, window and aggregate with their types', () => {
  const s = edgeSchemas(job(), { sampled });
  assert.equal(s.length, 6);
  assert.ok(s.every((x) => x.known));
  assert.deepEqual(brief(s[0]), ['id BIGINT', 'user STRING', 'amount BIGINT', 'ts BIGINT *rowtime*']);
  assert.deepEqual(brief(s[1]), brief(s[0]), 'a filter passes its input on');
  assert.deepEqual(brief(s[2]), ['user STRING', 'price DECIMAL(10, 2)', 'ts BIGINT *rowtime*']);
  // Flink's window bounds: TIMESTAMP(3) NOT NULL (SqlWindowTableFunction), Weir's TIMESTAMP values.
  assert.deepEqual(brief(s[3]), [
    'window_start TIMESTAMP(3) NOT NULL',
    'window_end TIMESTAMP(3) NOT NULL',
    'user STRING',
    'n BIGINT NOT NULL',
    'total DECIMAL(38, 2)',
  ]);
  assert.deepEqual(
    s.map((x) => x.changelog),
    [false, false, false, false, false, true],
    'only the aggregate emits a changelog',
  );
  assert.deepEqual(inputSchemas(job(), 'w', { sampled }), [s[2]]);
});

test('declared types are shown as written; an untyped source is unknown, never a throw', () => {
  const declared = job();
  (declared.nodes[0].config as { columns?: Record<string, string> }).columns = {
    user: 'VARCHAR(20)',
    amount: 'INT',
    ts: 'TIMESTAMP(3)',
  };
  declared.nodes[2].config = { select: 'user, amount, ts' };
  (declared.nodes[3].config as { aggregates: string }).aggregates = 'COUNT(*) AS n';
  const s = edgeSchemas(declared);
  assert.deepEqual(brief(s[0]), ['user VARCHAR(20)', 'amount INT', 'ts TIMESTAMP(3) *rowtime*']);
  assert.deepEqual(brief(s[2]), brief(s[0]));

  const untyped = edgeSchemas(job());
  assert.deepEqual(untyped[0], { columns: [], changelog: false, known: false });
  // A half-edited job (a node without config) still answers.
  const broken = job() as unknown as { nodes: Array<{ config?: unknown }> };
  delete broken.nodes[1].config;
  assert.equal(edgeSchemas(broken as unknown as JobDocument).length, 6);
});

test("Flink's result types: SUM and AVG of an INT are INTs, a union widens, window bounds are TIMESTAMP(3)", () => {
  const doc = job();
  (doc.nodes[0].config as { columns?: Record<string, string> }).columns = {
    user: 'STRING',
    qty: 'INT',
    amount: 'DOUBLE',
    ts: 'BIGINT',
  };
  doc.nodes[2].config = { select: 'user, qty, qty + 1 AS next, CHAR_LENGTH(user) AS len, ts' };
  (doc.nodes[3].config as { aggregates: string }).aggregates =
    'COUNT(*) AS n, SUM(qty) AS total, AVG(qty) AS mean, MAX(len) AS longest';
  const s = edgeSchemas(doc);
  assert.deepEqual(brief(s[2]), ['user STRING', 'qty INT', 'next INT', 'len INT', 'ts BIGINT *rowtime*']);
  assert.deepEqual(brief(s[3]), [
    'window_start TIMESTAMP(3) NOT NULL',
    'window_end TIMESTAMP(3) NOT NULL',
    'user STRING',
    'n BIGINT NOT NULL',
    'total INT',
    'mean INT',
    'longest INT',
  ]);

  // A union of a BIGINT and a DOUBLE column is a DOUBLE (Calcite's leastRestrictive), a column
  // missing from one input keeps the other's type (NULL there), STRING with BIGINT has none.
  const union: JobDocument = {
    format: 'weir.job/v1',
    name: 'union',
    nodes: [
      {
        id: 'a',
        type: 'source.file',
        config: { path: 'a.jsonl', format: 'jsonl', columns: { k: 'STRING', v: 'BIGINT', x: 'STRING', only: 'INT' } },
      },
      {
        id: 'b',
        type: 'source.file',
        config: { path: 'b.jsonl', format: 'jsonl', columns: { k: 'STRING', v: 'DOUBLE', x: 'BIGINT' } },
      },
      { id: 'u', type: 'union', config: {} },
      { id: 'o', type: 'sink.preview', config: {} },
    ],
    edges: [
      { from: 'a', to: 'u' },
      { from: 'b', to: 'u' },
      { from: 'u', to: 'o' },
    ],
  };
  assert.deepEqual(brief(edgeSchemas(union)[2]), ['k STRING', 'v DOUBLE', 'x UNKNOWN', 'only INT']);
});
