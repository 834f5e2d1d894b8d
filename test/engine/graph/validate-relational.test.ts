// Validation of the relational nodes (join.interval, aggregate, topn): toPort rules, columns of
// both join inputs, changelog edges and the nodes that refuse them, every message path-named.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nodeColumns, validateJob } from '../../../engine/graph/validate.ts';
import { checkGraph } from '../../../engine/graph/check-graph.ts';
import { changelogEdges } from '../../../engine/graph/changelog.ts';
import { canConnect } from '../../../engine/graph/ports.ts';
import { toJobDocument } from '../../../engine/graph/normalize.ts';
import type { JobDocument } from '../../../engine/graph/types.ts';
import { errorsOf, lines } from './job-builders.ts';

function joinJob(): JobDocument {
  return {
    format: 'weir.job/v1',
    name: 'j',
    nodes: [
      {
        id: 'orders',
        type: 'source.file',
        config: {
          path: 'o.jsonl',
          format: 'jsonl',
          columns: { user: 'STRING', amount: 'DOUBLE', ts: 'BIGINT' },
          eventTime: { field: 'ts' },
        },
      },
      {
        id: 'users',
        type: 'source.file',
        config: {
          path: 'u.jsonl',
          format: 'jsonl',
          columns: { id: 'STRING', country: 'STRING', ts: 'BIGINT' },
          eventTime: { field: 'ts' },
        },
      },
      {
        id: 'j',
        type: 'join.interval',
        config: { leftKey: 'user', rightKey: 'id', lower: '-5s', upper: '5s', select: 'L.user, L.amount, R.country' },
      },
      { id: 'out', type: 'sink.file', config: { path: 'out/j', format: 'jsonl' } },
    ],
    edges: [
      { from: 'orders', to: 'j', toPort: 'left' },
      { from: 'users', to: 'j', toPort: 'right' },
      { from: 'j', to: 'out' },
    ],
  };
}

function errorLines(doc: JobDocument): string[] {
  const r = validateJob(doc);
  assert.equal(r.ok, false, 'expected the job to be rejected');
  return lines(errorsOf(r.problems));
}

test('an interval join validates, normalizes signed bounds and round-trips', () => {
  const r = validateJob(joinJob());
  assert.ok(r.ok, JSON.stringify(!r.ok && r.problems));
  const j = r.job.nodes.find((n) => n.id === 'j')!;
  assert.deepEqual(j.type === 'join.interval' && [j.config.lower, j.config.upper], [-5000, 5000]);
  assert.deepEqual(r.job.edges[0], { from: 'orders', to: 'j', fromPort: 'out', toPort: 'left' });
  const again = validateJob(toJobDocument(r.job));
  assert.ok(again.ok);
  assert.deepEqual(again.job, r.job);
  assert.deepEqual(nodeColumns(joinJob()).get('j')?.out, ['user', 'amount', 'country']);
});

test('join ports: toPort required, one edge per port, none on other nodes', () => {
  const missing = joinJob();
  delete missing.edges[1].toPort;
  assert.deepEqual(errorLines(missing), [
    "edges[1].toPort: 'j' is a join.interval node: set toPort to 'left' or 'right'",
    "nodes[2]: the right input of join.interval 'j' needs exactly one edge, it has 0",
  ]);
  const twice = joinJob();
  twice.edges[1].toPort = 'left';
  assert.deepEqual(errorLines(twice), [
    "nodes[2]: the left input of join.interval 'j' needs exactly one edge, it has 2",
    "nodes[2]: the right input of join.interval 'j' needs exactly one edge, it has 0",
  ]);
  const stray = joinJob();
  stray.edges[2].toPort = 'left';
  assert.deepEqual(errorLines(stray), [
    "edges[2].toPort: 'out' is a sink.file node: it has no input port 'left' (only joins have left/right)",
    "nodes[3]: 'out' has no input",
  ]);
  const g = { nodes: joinJob().nodes, edges: [{ from: 'orders', to: 'j', toPort: 'left' as const }] };
  assert.deepEqual(canConnect(g, 'users', 'out', 'j'), {
    ok: false,
    reason: 'a join.interval node has input ports left and right: choose one',
  });
  assert.deepEqual(canConnect(g, 'users', 'out', 'j', 'left'), {
    ok: false,
    reason: "the left input of 'j' is already connected",
  });
  assert.deepEqual(canConnect(g, 'users', 'out', 'j', 'right'), { ok: true });
  // A self-join: the same node on both ports.
  assert.deepEqual(canConnect(g, 'orders', 'out', 'j', 'right'), { ok: true });
});

test('join columns are checked against the input on their side', () => {
  const doc = joinJob();
  const c = doc.nodes[2].config as { leftKey: string; select: string; lower: string };
  c.leftKey = 'id';
  c.select = 'L.user, R.amount, country';
  assert.deepEqual(errorLines(doc), [
    "nodes[2].config.leftKey: unknown column 'id' (columns: user, amount, ts)",
    "nodes[2].config.select: column 'country' needs an input prefix: L.country or R.country (column 19)",
  ]);
  c.select = 'L.user, R.amount, L.user AS u2';
  assert.deepEqual(errorLines(doc).slice(1), [
    "nodes[2].config.select: unknown column 'R.amount' (columns: R.id, R.country, R.ts)",
  ]);
  c.leftKey = 'user';
  c.lower = '10s';
  c.select = 'L.user';
  assert.deepEqual(errorLines(doc), [
    'nodes[2].config.lower: lower (10000 ms) is greater than upper (5000 ms): no row could ever join',
  ]);
  const bad = joinJob();
  (bad.nodes[2].config as { upper: string }).upper = '-x';
  assert.match(errorLines(bad)[0], /^nodes\[2\]\.config\.upper: invalid duration '-x'/);
  const noTime = joinJob();
  delete (noTime.nodes[1].config as { eventTime?: unknown }).eventTime;
  assert.deepEqual(errorLines(noTime), [
    "nodes[2].config.window: join.interval 'j' needs event time, but source 'users' has none: set nodes[1].config.eventTime",
  ]);
});

function aggJob(): JobDocument {
  return {
    format: 'weir.job/v1',
    name: 'a',
    nodes: [
      { id: 'gen', type: 'source.generator', config: { count: 10 } },
      {
        id: 'agg',
        type: 'aggregate',
        config: {
          keyBy: 'key',
          aggregates: 'COUNT(*) AS n, COUNT(DISTINCT value) AS d, SUM(value) FILTER (WHERE value > 3) AS s',
        },
      },
      { id: 'f', type: 'filter', config: { where: 'n > 1' } },
      { id: 'out', type: 'sink.file', config: { path: 'out/a', format: 'changelog-json' } },
    ],
    edges: [
      { from: 'gen', to: 'agg' },
      { from: 'agg', to: 'f' },
      { from: 'f', to: 'out' },
    ],
  };
}

test('aggregate and topn: columns, COUNT(DISTINCT), FILTER and their errors', () => {
  const ok = validateJob(aggJob());
  assert.ok(ok.ok, JSON.stringify(!ok.ok && ok.problems));
  assert.deepEqual(nodeColumns(aggJob()).get('agg')?.out, ['key', 'n', 'd', 's']);
  const doc = aggJob();
  (doc.nodes[1].config as { aggregates: string }).aggregates =
    'COUNT(*) FILTER (WHERE nope > 3) AS n, SUM(DISTINCT value) AS s';
  assert.deepEqual(errorLines(doc), [
    'nodes[1].config.aggregates: SUM(DISTINCT ...) is not supported: only COUNT(DISTINCT x) (column 40)',
  ]);
  (doc.nodes[1].config as { aggregates: string }).aggregates = 'COUNT(*) FILTER (WHERE nope > 3) AS n, COUNT(*) AS key';
  assert.deepEqual(errorLines(doc), [
    "nodes[1].config.aggregates: unknown column 'nope' (columns: seq, key, value, ts)",
    "nodes[1].config.aggregates: output column 'key' is already a key column: choose another alias",
  ]);
  const top: JobDocument = {
    ...aggJob(),
    nodes: [
      aggJob().nodes[0],
      { id: 't', type: 'topn', config: { partitionBy: 'key', orderBy: 'value DESC, tss', limit: 3 } },
      aggJob().nodes[3],
    ],
    edges: [
      { from: 'gen', to: 't' },
      { from: 't', to: 'out' },
    ],
  };
  assert.deepEqual(errorLines(top), [
    "nodes[1].config.orderBy: unknown column 'tss' (columns: seq, key, value, ts; did you mean 'ts'?)",
  ]);
  (top.nodes[1].config as { orderBy: string }).orderBy = 'ts ASC';
  assert.ok(validateJob(top).ok);
  assert.deepEqual(nodeColumns(top).get('t')?.out, ['seq', 'key', 'value', 'ts', 'rownum']);
  (top.nodes[1].config as { limit: number }).limit = 0;
  assert.match(errorLines(top)[0], /^nodes\[1\]\.config\.limit: /);
});

test('changelog edges are computed; a node that cannot take one names the producer', () => {
  const doc = aggJob();
  const idx = checkGraph(doc, []);
  assert.deepEqual([...changelogEdges(idx)].sort(), [1, 2]);
  (doc.nodes[3].config as { format: string }).format = 'jsonl';
  assert.deepEqual(errorLines(doc), [
    "edges[2]: sink.file 'out' cannot take a changelog, but aggregate 'agg' produces one (through 'f'): set nodes[3].config.format to \"changelog-json\"",
  ]);
  const win = aggJob();
  win.nodes[2] = {
    id: 'f',
    type: 'window',
    config: { keyBy: 'key', window: { kind: 'tumbling', size: '1s' }, aggregates: 'COUNT(*) AS c' },
  };
  // A tumbling window takes the changelog (Flink 1.19+ window aggregation over updates); its output
  // is append-only again, so the jsonl-capable sink after it would take it too.
  const winOut = win.nodes[3] as { config: { format: string } };
  winOut.config.format = 'jsonl';
  assert.ok(validateJob(win).ok, 'a tumbling window takes a changelog');
  assert.deepEqual([...changelogEdges(checkGraph(win, []))], [1], 'the window output is append-only');
  (win.nodes[2].config as { window: unknown }).window = { kind: 'session', gap: '1s' };
  assert.deepEqual(errorLines(win), [
    "edges[1]: window 'f' cannot take a changelog, but aggregate 'agg' produces one: session windows do not take one (retracting a row could split a merged session); use a tumbling or sliding window",
  ]);
  (win.nodes[2].config as { window: unknown }).window = { kind: 'sliding', size: '2s', slide: '1s' };
  win.nodes.push({ id: 'late', type: 'sink.preview', config: {} });
  win.edges.push({ from: 'f', to: 'late', fromPort: 'late' });
  assert.deepEqual(errorLines(win), [
    "edges[3]: window 'f' takes a changelog from aggregate 'agg', so its late changes (retractions too) are dropped and counted: the append-only 'late' port cannot carry them; remove this edge",
  ]);
  const top = aggJob();
  top.nodes[2] = { id: 'f', type: 'topn', config: { partitionBy: 'key', orderBy: 'n DESC', limit: 1 } };
  top.nodes[3] = { id: 'out', type: 'sink.preview', config: {} };
  assert.deepEqual(errorLines(top), [
    "edges[1]: topn 'f' cannot take a changelog, but aggregate 'agg' produces one: only filter, map, union, aggregate, window (tumbling or sliding), sink.preview, sink.blackhole, sink.file with format \"changelog-json\" and sink.postgres in upsert mode take one",
  ]);
  const aggOfAgg = aggJob();
  aggOfAgg.nodes[2] = { id: 'f', type: 'aggregate', config: { keyBy: 'n', aggregates: 'COUNT(*) AS keys' } };
  assert.ok(validateJob(aggOfAgg).ok, 'an aggregate takes a changelog');
  const preview = aggJob();
  preview.nodes[3] = { id: 'out', type: 'sink.preview', config: {} };
  assert.ok(validateJob(preview).ok);
});

test('join and join.window: kinds, window bounds in the select, session windows, outer joins are changelogs', () => {
  const doc = joinJob();
  doc.nodes[2] = {
    id: 'j',
    type: 'join',
    config: { kind: 'left', leftKey: 'user', rightKey: 'id', select: 'L.user, R.country' },
  };
  assert.deepEqual(errorLines(doc), [
    "edges[2]: sink.file 'out' cannot take a changelog, but join 'j' produces one: set nodes[3].config.format to \"changelog-json\"",
  ]);
  (doc.nodes[2].config as { kind: string }).kind = 'inner';
  assert.ok(validateJob(doc).ok, 'an inner join is append-only');
  (doc.nodes[2].config as { kind: string }).kind = 'outer';
  assert.match(errorLines(doc)[0], /^nodes\[2\]\.config\.kind: /);

  const win = joinJob();
  win.nodes[2] = {
    id: 'j',
    type: 'join.window',
    config: {
      leftKey: 'user',
      rightKey: 'id',
      window: { kind: 'tumbling', size: '10s' },
      select: 'window_start, window_end, L.user, R.country',
    },
  };
  assert.ok(validateJob(win).ok);
  assert.deepEqual(nodeColumns(win).get('j')?.out, ['window_start', 'window_end', 'user', 'country']);
  (win.nodes[2].config as { window: unknown }).window = { kind: 'session', gap: '5s' };
  assert.ok(validateJob(win).ok, 'a session window join is valid');
  assert.deepEqual(nodeColumns(win).get('j')?.out, ['window_start', 'window_end', 'user', 'country']);
  (win.nodes[2].config as { window: unknown }).window = { kind: 'session', gap: '0s' };
  assert.deepEqual(errorLines(win), ['nodes[2].config.window.gap: must be greater than 0']);
  (win.nodes[2].config as { window: unknown }).window = { kind: 'sliding', size: '0s', slide: '1s' };
  assert.deepEqual(errorLines(win), [
    'nodes[2].config.window.size: must be greater than 0',
    'nodes[2].config.window.slide: slide (1000 ms) must not be larger than size (0 ms)',
  ]);
  const plainWin = joinJob();
  plainWin.nodes[2] = {
    id: 'j',
    type: 'join',
    config: { kind: 'inner', leftKey: 'user', rightKey: 'id', select: 'window_start, L.user' },
  };
  assert.deepEqual(errorLines(plainWin), [
    "nodes[2].config.select: column 'window_start' needs an input prefix: L.window_start or R.window_start (column 1)",
  ]);
});

test('topn with a window: append-only, window columns first, session windows too', () => {
  const doc = aggJob();
  doc.nodes[1] = {
    id: 'agg',
    type: 'topn',
    config: { partitionBy: 'key', orderBy: 'value DESC', limit: 2, window: { kind: 'tumbling', size: '1s' } },
  };
  doc.nodes[2] = {
    id: 'f',
    type: 'window',
    config: { window: { kind: 'tumbling', size: '1m' }, aggregates: 'COUNT(*) AS c' },
  };
  (doc.nodes[3].config as { format: string }).format = 'jsonl';
  const r = validateJob(doc);
  assert.ok(r.ok, JSON.stringify(!r.ok && r.problems));
  assert.deepEqual(nodeColumns(doc).get('agg')?.out, [
    'window_start',
    'window_end',
    'seq',
    'key',
    'value',
    'ts',
    'rownum',
  ]);
  (doc.nodes[1].config as { window: unknown }).window = { kind: 'session', gap: '1s' };
  assert.ok(validateJob(doc).ok, 'a session window Top-N is valid');
  assert.equal(nodeColumns(doc).get('agg')?.out?.[0], 'window_start');
  (doc.nodes[1].config as { window: unknown }).window = { kind: 'session', gap: '0ms' };
  assert.deepEqual(errorLines(doc), ['nodes[1].config.window.gap: must be greater than 0']);
  (doc.nodes[1].config as { window: unknown }).window = { kind: 'sliding', size: '1s', slide: '2s' };
  assert.deepEqual(errorLines(doc), [
    'nodes[1].config.window.slide: slide (2000 ms) must not be larger than size (1000 ms)',
  ]);
});
