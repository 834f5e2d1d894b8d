// Structural checks of validateJob: ids, edges, ports, input/output counts, cycles, parallelism.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateJob } from '../../../engine/graph/validate.ts';
import type { JobDocument, JobProblem } from '../../../engine/graph/types.ts';
import { baseJob, errorsOf, lines } from './job-builders.ts';

function rejected(doc: JobDocument): JobProblem[] {
  const r = validateJob(doc);
  assert.equal(r.ok, false, 'expected the job to be rejected');
  return r.problems;
}

/** The base job sums a column declared DOUBLE: validation notes that Weir's sum is exact (issue 12). */
const EXACT_SUM_WARNING = {
  path: 'nodes[2].config.aggregates',
  nodeId: 'per_user',
  severity: 'warning',
  message:
    'SUM(amount) AS total sums a DOUBLE: Weir adds DOUBLE values exactly, so the result does not depend on arrival order; Flink adds them in arrival order, so the last digits may differ',
};

test('the base job is valid; its only warning is the exact DOUBLE sum', () => {
  const r = validateJob(baseJob());
  assert.equal(r.ok, true, JSON.stringify(r.problems));
  assert.deepEqual(r.problems, [EXACT_SUM_WARNING]);
});

test('duplicate node ids', () => {
  const doc = baseJob();
  doc.nodes.push({ id: 'big', type: 'sink.preview', config: {} });
  doc.edges.push({ from: 'per_user', to: 'big' });
  const p = rejected(doc);
  assert.ok(lines(p).includes("nodes[4].id: duplicate node id 'big' (also nodes[1])"), lines(p).join('\n'));
  assert.equal(p.find((x) => x.path === 'nodes[4].id')?.nodeId, 'big');
});

test('dangling edges name the missing node', () => {
  const doc = baseJob();
  doc.edges.push({ from: 'per_user', to: 'nowhere' }, { from: 'ghost', to: 'out' });
  assert.deepEqual(lines(errorsOf(rejected(doc))), [
    "edges[3].to: unknown node 'nowhere'",
    "edges[4].from: unknown node 'ghost'",
  ]);
});

test("fromPort 'late' only from windows; 'late' from a window is fine", () => {
  const doc = baseJob();
  doc.edges.push({ from: 'big', to: 'out', fromPort: 'late' });
  assert.deepEqual(lines(errorsOf(rejected(doc))), [
    "edges[3].fromPort: 'late' is only available on window nodes ('big' is a filter node)",
  ]);
  const ok = baseJob();
  ok.nodes.push({ id: 'late', type: 'sink.preview', config: {} });
  ok.edges.push({ from: 'per_user', to: 'late', fromPort: 'late' });
  const r = validateJob(ok);
  assert.equal(r.ok, true, JSON.stringify(r.problems));
});

test('sources take no inputs, sinks have no outputs', () => {
  const doc = baseJob();
  doc.nodes.push({ id: 'preview', type: 'sink.preview', config: {} });
  doc.edges.push({ from: 'out', to: 'preview' }, { from: 'big', to: 'orders' });
  const p = errorsOf(rejected(doc));
  assert.deepEqual(
    lines(p).filter((l) => l.startsWith('edges')),
    [
      "edges[3].from: 'out' is a sink.file node: sinks have no outputs",
      "edges[4].to: 'orders' is a source.file node: sources take no inputs",
    ],
  );
  assert.deepEqual(
    p.filter((x) => x.path.startsWith('edges')).map((x) => x.nodeId),
    ['out', 'orders'],
  );
});

test('filter, map and window take exactly one input; union two or more; sinks need one', () => {
  const doc = baseJob();
  doc.nodes.push(
    { id: 'other', type: 'source.file', config: { path: 'b.jsonl', format: 'jsonl', eventTime: { field: 'ts' } } },
    { id: 'u', type: 'union', config: {} },
    { id: 'm', type: 'map', config: { select: 'user' } },
    { id: 'lonely', type: 'sink.preview', config: {} },
  );
  doc.edges.push(
    { from: 'other', to: 'big' },
    { from: 'big', to: 'u' },
    { from: 'u', to: 'out' },
    { from: 'm', to: 'out' },
  );
  const l = lines(errorsOf(rejected(doc)));
  assert.ok(
    l.includes("nodes[1]: a filter node needs exactly one input, 'big' has 2 (merge streams with a union first)"),
    l.join('\n'),
  );
  assert.ok(l.includes("nodes[5]: a union needs at least two inputs, 'u' has 1"), l.join('\n'));
  assert.ok(l.includes("nodes[6]: a map node needs exactly one input, 'm' has 0"), l.join('\n'));
  assert.ok(l.includes("nodes[7]: 'lonely' has no input"), l.join('\n'));
});

test('a cycle is an error naming the nodes on it', () => {
  const doc = baseJob();
  doc.nodes.push(
    { id: 'u', type: 'union', config: {} },
    { id: 'again', type: 'filter', config: { where: 'amount > 1' } },
  );
  // orders -> u -> big -> again -> u  (the cycle is u -> big -> again -> u)
  doc.edges = [
    { from: 'orders', to: 'u' },
    { from: 'u', to: 'big' },
    { from: 'big', to: 'again' },
    { from: 'again', to: 'u' },
    { from: 'big', to: 'per_user' },
    { from: 'per_user', to: 'out' },
  ];
  const cyc = errorsOf(rejected(doc)).filter((x) => x.message.startsWith('cycle'));
  assert.equal(cyc.length, 1);
  assert.match(cyc[0].message, /^cycle: (u -> big -> again -> u|big -> again -> u -> big|again -> u -> big -> again)$/);
  assert.match(cyc[0].path, /^edges\[\d\]$/);
  assert.ok(['u', 'big', 'again'].includes(cyc[0].nodeId!));
});

test('a self loop is a cycle too', () => {
  const doc = baseJob();
  doc.nodes.push({ id: 'u', type: 'union', config: {} });
  doc.edges = [
    { from: 'orders', to: 'u' },
    { from: 'u', to: 'u' },
    { from: 'u', to: 'big' },
    { from: 'big', to: 'per_user' },
    { from: 'per_user', to: 'out' },
  ];
  assert.ok(lines(rejected(doc)).includes('edges[1]: cycle: u -> u'), lines(rejected(doc)).join('\n'));
});

test('an unconnected output is a warning, not an error', () => {
  const doc = baseJob();
  doc.nodes.push({ id: 'dead_end', type: 'filter', config: { where: 'amount < 0' } });
  doc.edges.push({ from: 'orders', to: 'dead_end' });
  const r = validateJob(doc);
  assert.equal(r.ok, true);
  assert.deepEqual(r.problems, [
    {
      path: 'nodes[4]',
      message: "the output of 'dead_end' is not connected: its records go nowhere",
      severity: 'warning',
      nodeId: 'dead_end',
    },
    EXACT_SUM_WARNING,
  ]);
});

test('parallelism must not exceed maxParallelism (job and node)', () => {
  const doc = baseJob();
  doc.settings = { ...doc.settings, parallelism: 8, maxParallelism: 4 };
  doc.nodes[1].parallelism = 16;
  assert.deepEqual(lines(errorsOf(rejected(doc))), [
    'settings.parallelism: parallelism 8 is greater than maxParallelism 4',
    'nodes[1].parallelism: parallelism 16 is greater than maxParallelism 4',
  ]);
  const dflt = baseJob();
  dflt.nodes[1].parallelism = 129; // default maxParallelism is 128
  assert.deepEqual(lines(errorsOf(rejected(dflt))), [
    'nodes[1].parallelism: parallelism 129 is greater than maxParallelism 128',
  ]);
});

test('a job needs a source and a sink; window sizes must be positive', () => {
  const doc = baseJob();
  doc.nodes = [doc.nodes[1]];
  doc.edges = [];
  const l = lines(errorsOf(rejected(doc)));
  assert.ok(l.includes('nodes: a job needs at least one source node'));
  assert.ok(l.includes('nodes: a job needs at least one sink node'));
  const zero = baseJob();
  (zero.nodes[2].config as { window: unknown }).window = { kind: 'sliding', size: '10s', slide: 0 };
  assert.deepEqual(lines(errorsOf(rejected(zero))), ['nodes[2].config.window.slide: must be greater than 0']);
});

test('two file sinks may not write to the same folder', () => {
  const doc = baseJob();
  doc.nodes.push({ id: 'out2', type: 'sink.file', config: { path: './out/x/', format: 'csv' } });
  doc.edges.push({ from: 'per_user', to: 'out2' });
  assert.deepEqual(lines(errorsOf(rejected(doc))), [
    "nodes[4].config.path: sink path './out/x/' is also written by nodes[3]",
  ]);
});
