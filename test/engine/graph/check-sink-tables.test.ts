/**
 * engine/graph/check-sink-tables.ts with catalogs given by hand (no database): what the checker
 * does with several inputs, inputs known only from their data, and without catalogs (the designer).
 * The classes of problem against a real table are in test/engine/connectors/postgres/sink-catalogs.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateJob } from '../../../engine/graph/validate.ts';
import type { SinkCatalog } from '../../../engine/graph/check-sink-tables.ts';
import type { JobProblem } from '../../../engine/graph/types.ts';

const url = 'postgresql://weir@db:5432/shop';

function twoInputs() {
  return {
    format: 'weir.job/v1',
    name: 'two',
    nodes: [
      { id: 'a', type: 'source.generator', config: { count: 10 } },
      { id: 'b', type: 'source.generator', config: { count: 10 } },
      { id: 'pg', type: 'sink.postgres', config: { url, table: 't', mode: 'append' } },
    ],
    edges: [
      { from: 'a', to: 'pg' },
      { from: 'b', to: 'pg' },
    ],
  };
}

function table(columns: Array<[string, string, string | null, boolean?]>): SinkCatalog {
  return {
    state: 'table',
    table: 'public.t',
    uniqueKeys: [],
    columns: columns.map(([name, dbType, flinkType, notNull]) => ({
      name,
      dbType,
      flinkType,
      notNull: !!notNull,
      hasDefault: false,
    })),
  };
}

const lines = (ps: JobProblem[]) => ps.map((p) => `${p.severity ?? 'error'} ${p.path}: ${p.message}`);

test('two inputs giving the same columns: each problem once', () => {
  const catalog = table([
    ['seq', 'bigint', 'BIGINT', true],
    ['key', 'integer', 'INT'],
    ['value', 'bigint', 'BIGINT'],
  ]);
  const r = validateJob(twoInputs(), { sinkCatalogs: new Map([['pg', catalog]]) });
  assert.deepEqual(lines(r.problems), [
    "error nodes[2].config.table: column 'key' is integer (INT) in PostgreSQL but the input gives STRING, which Flink " +
      "does not cast to INT implicitly (change the column's type, or CAST the value before the sink)",
    "error nodes[2].config.table: table public.t has no column 'ts' (it has seq, key, value)",
    "warning nodes[2].config.table: column 'seq' of public.t is NOT NULL but the input may give NULL there: the run " +
      "fails on the first NULL written (as Flink's table.exec.sink.not-null-enforcer = ERROR does)",
  ]);
});

test('a column type outside Flink JDBC mapping (json, uuid) is left to PostgreSQL', () => {
  const catalog = table([
    ['seq', 'bigint', 'BIGINT'],
    ['key', 'uuid', null],
    ['value', 'jsonb', null],
    ['ts', 'bigint', 'BIGINT'],
  ]);
  const r = validateJob(twoInputs(), { sinkCatalogs: new Map([['pg', catalog]]) });
  assert.deepEqual(lines(r.problems), []);
});

test('an input known only from its data is not column-checked; the table itself still is', () => {
  const job = {
    format: 'weir.job/v1',
    name: 'undeclared',
    nodes: [
      { id: 'f', type: 'source.file', config: { path: 'nowhere/x.jsonl', format: 'jsonl' } },
      { id: 'pg', type: 'sink.postgres', config: { url, table: 't', mode: 'append' } },
    ],
    edges: [{ from: 'f', to: 'pg' }],
  };
  const narrow = validateJob(job, { sinkCatalogs: new Map([['pg', table([['x', 'text', 'STRING']])]]) });
  assert.deepEqual(
    lines(narrow.problems).filter((l) => l.startsWith('error')),
    [],
  );
  const missing = validateJob(job, {
    sinkCatalogs: new Map([['pg', { state: 'missing', message: 'table public.t does not exist' }]]),
  });
  assert.deepEqual(lines(missing.problems), ['error nodes[1].config.table: table public.t does not exist']);
});

test('without catalogs (the designer) nothing about the table is said', () => {
  const r = validateJob(twoInputs());
  assert.equal(r.ok, true);
  assert.deepEqual(lines(r.problems), []);
});
