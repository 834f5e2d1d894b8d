// Data checks of validateJob: event time upstream of windows, expression syntax through the real
// SQL compiler, and known columns where the upstream schema is known.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nodeColumns, validateJob } from '../../../engine/graph/validate.ts';
import type { JobDocument } from '../../../engine/graph/types.ts';
import { baseJob, errorsOf, lines, node } from './job-builders.ts';

function errorLines(doc: JobDocument): string[] {
  const r = validateJob(doc);
  assert.equal(r.ok, false, 'expected the job to be rejected');
  return lines(errorsOf(r.problems));
}

test('a window needs event time on every source it reads from, even through a union', () => {
  const doc = baseJob();
  delete (node(doc, 'orders').config as { eventTime?: unknown }).eventTime;
  const r = validateJob(doc);
  assert.deepEqual(errorLines(doc), [
    "nodes[2].config.window: window 'per_user' needs event time, but source 'orders' has none: set nodes[0].config.eventTime",
  ]);
  assert.equal(r.ok ? null : r.problems[0].nodeId, 'per_user');

  const two = baseJob();
  two.nodes.push(
    { id: 'gen', type: 'source.generator', config: { count: 5 } },
    { id: 'g2', type: 'map', config: { select: 'key AS user, value AS amount, ts' } },
    { id: 'u', type: 'union', config: {} },
  );
  two.edges = [
    { from: 'orders', to: 'u' },
    { from: 'gen', to: 'g2' },
    { from: 'g2', to: 'u' },
    { from: 'u', to: 'big' },
    { from: 'big', to: 'per_user' },
    { from: 'per_user', to: 'out' },
  ];
  // A generator always has event time (its `ts`); the file source without eventTime is the problem.
  assert.equal(validateJob(two).ok, true, JSON.stringify(validateJob(two).problems));
  delete (node(two, 'orders').config as { eventTime?: unknown }).eventTime;
  assert.deepEqual(errorLines(two), [
    "nodes[2].config.window: window 'per_user' needs event time, but source 'orders' has none: set nodes[0].config.eventTime",
  ]);
});

test('a generator without eventTime feeds a window on its ts column and runs', () => {
  const doc = {
    format: 'weir.job/v1',
    name: 'gen-window',
    nodes: [
      { id: 'g', type: 'source.generator', config: { count: 100, outOfOrderness: '1s' } },
      {
        id: 'w',
        type: 'window',
        config: { keyBy: 'key', window: { kind: 'tumbling', size: '1s' }, aggregates: 'COUNT(*) AS n' },
      },
      { id: 'o', type: 'sink.file', config: { path: 'out', format: 'jsonl' } },
    ],
    edges: [
      { from: 'g', to: 'w' },
      { from: 'w', to: 'o' },
    ],
  };
  const r = validateJob(doc);
  assert.equal(r.ok, true, JSON.stringify(r.problems));
});

test('expression syntax errors carry the field path and the column', () => {
  const doc = baseJob();
  (node(doc, 'big').config as { where: string }).where = 'amount >= ';
  const l = errorLines(doc);
  assert.equal(l.length, 1);
  assert.match(l[0], /^nodes\[1\]\.config\.where: .+ \(column \d+\)$/);
  const agg = baseJob();
  (node(agg, 'per_user').config as { aggregates: string }).aggregates = 'COUNT(*) AS n, SUM(amount AS total';
  assert.match(errorLines(agg)[0], /^nodes\[2\]\.config\.aggregates: .+ \(column \d+\)$/);
});

test('unknown columns against a declared file schema', () => {
  const doc = baseJob();
  (node(doc, 'big').config as { where: string }).where = 'amout >= 10';
  assert.deepEqual(errorLines(doc), [
    "nodes[1].config.where: unknown column 'amout' (columns: user, amount, ts; did you mean 'amount'?)",
  ]);
  const key = baseJob();
  (node(key, 'per_user').config as { keyBy: string }).keyBy = 'usr';
  assert.deepEqual(errorLines(key), [
    "nodes[2].config.keyBy: unknown column 'usr' (columns: user, amount, ts; did you mean 'user'?)",
  ]);
  const et = baseJob();
  (node(et, 'orders').config as { eventTime: { field: string } }).eventTime.field = 'time';
  assert.deepEqual(errorLines(et), [
    "nodes[0].config.eventTime.field: unknown column 'time' (columns: user, amount, ts)",
  ]);
});

test('a file source without declared columns is not checked', () => {
  const doc = baseJob();
  delete (node(doc, 'orders').config as { columns?: unknown }).columns;
  (node(doc, 'big').config as { where: string }).where = 'anything_goes > 1';
  assert.equal(validateJob(doc).ok, true);
});

test('generator columns, map output and window output flow downstream', () => {
  const doc: JobDocument = {
    format: 'weir.job/v1',
    name: 'gen',
    nodes: [
      { id: 'gen', type: 'source.generator', config: { count: 10, eventTime: { field: 'ts' } } },
      { id: 'm', type: 'map', config: { select: 'key AS sensor, value * 2 AS v2, ts' } },
      {
        id: 'w',
        type: 'window',
        config: { keyBy: 'sensor', window: { kind: 'tumbling', size: '1s' }, aggregates: 'AVG(v2) AS avg_v, COUNT(*)' },
      },
      { id: 'f', type: 'filter', config: { where: 'avg_v > 1 AND sensor IS NOT NULL AND window_end > window_start' } },
      { id: 'out', type: 'sink.preview', config: {} },
    ],
    edges: [
      { from: 'gen', to: 'm' },
      { from: 'm', to: 'w' },
      { from: 'w', to: 'f' },
      { from: 'f', to: 'out' },
    ],
  };
  assert.equal(validateJob(doc).ok, true, JSON.stringify(validateJob(doc).problems));

  (node(doc, 'm').config as { select: string }).select = 'kee AS sensor, value * 2 AS v2, ts';
  assert.deepEqual(errorLines(doc), [
    "nodes[1].config.select: unknown column 'kee' (columns: seq, key, value, ts; did you mean 'key'?)",
  ]);

  (node(doc, 'm').config as { select: string }).select = 'key AS sensor, value * 2 AS v2, ts';
  (node(doc, 'f').config as { where: string }).where = 'value > 1';
  assert.deepEqual(errorLines(doc), [
    "nodes[3].config.where: unknown column 'value' (columns: window_start, window_end, sensor, avg_v, EXPR$1)",
  ]);
});

test("a window's late port carries its input columns", () => {
  const doc = baseJob();
  doc.nodes.push(
    { id: 'late_f', type: 'filter', config: { where: 'n > 1' } },
    { id: 'late', type: 'sink.preview', config: {} },
  );
  doc.edges.push({ from: 'per_user', to: 'late_f', fromPort: 'late' }, { from: 'late_f', to: 'late' });
  assert.deepEqual(errorLines(doc), ["nodes[4].config.where: unknown column 'n' (columns: user, amount, ts)"]);
  (node(doc, 'late_f').config as { where: string }).where = 'amount > 1';
  assert.equal(validateJob(doc).ok, true);
});

test('union inputs with different known columns are rejected', () => {
  const doc = baseJob();
  doc.nodes.push(
    { id: 'gen', type: 'source.generator', config: { eventTime: { field: 'ts' } } },
    { id: 'u', type: 'union', config: {} },
  );
  doc.edges = [
    { from: 'orders', to: 'u' },
    { from: 'gen', to: 'u' },
    { from: 'u', to: 'big' },
    { from: 'big', to: 'per_user' },
    { from: 'per_user', to: 'out' },
  ];
  assert.deepEqual(errorLines(doc), [
    'nodes[5]: union inputs have different columns: (user, amount, ts) vs (seq, key, value, ts)',
  ]);
});

test('select * passes the input columns through', () => {
  const doc = baseJob();
  doc.nodes.splice(1, 0, { id: 'all', type: 'map', config: { select: '*, amount * 2 AS double_amount' } });
  doc.edges = [
    { from: 'orders', to: 'all' },
    { from: 'all', to: 'big' },
    { from: 'big', to: 'per_user' },
    { from: 'per_user', to: 'out' },
  ];
  (node(doc, 'big').config as { where: string }).where = 'double_amount > 20 AND amount > 0';
  assert.equal(validateJob(doc).ok, true, JSON.stringify(validateJob(doc).problems));
  (node(doc, 'big').config as { where: string }).where = 'triple > 20';
  assert.deepEqual(errorLines(doc), [
    "nodes[2].config.where: unknown column 'triple' (columns: user, amount, ts, double_amount)",
  ]);
});

test('nodeColumns reports what each node emits on each port', () => {
  const doc = baseJob();
  doc.nodes.push({ id: 'late', type: 'sink.preview', config: {} });
  doc.edges.push({ from: 'per_user', to: 'late', fromPort: 'late' });
  const cols = nodeColumns(doc);
  assert.deepEqual(cols.get('orders')?.out, ['user', 'amount', 'ts']);
  assert.deepEqual(cols.get('big')?.out, ['user', 'amount', 'ts']);
  assert.deepEqual(cols.get('per_user'), {
    out: ['window_start', 'window_end', 'user', 'n', 'total'],
    late: ['user', 'amount', 'ts'],
  });
  delete (node(doc, 'orders').config as { columns?: unknown }).columns;
  assert.equal(nodeColumns(doc).get('big')?.out, null);
});

test('an aggregate alias may not reuse a key or window column', () => {
  const doc = baseJob();
  (node(doc, 'per_user').config as { aggregates: string }).aggregates = 'COUNT(*) AS user';
  assert.deepEqual(errorLines(doc), [
    "nodes[2].config.aggregates: output column 'user' is already a key column: choose another alias",
  ]);
  (node(doc, 'per_user').config as { aggregates: string }).aggregates = 'MAX(ts) AS window_end';
  assert.deepEqual(errorLines(doc), [
    "nodes[2].config.aggregates: output column 'window_end' is already a window column: choose another alias",
  ]);
});
