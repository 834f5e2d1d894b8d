// `weir validate` as a real subprocess: documented messages, exit codes, no stack traces.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, hasStackTrace, tempDir, weir, writeJob } from './cli-helpers.ts';

const example = (name: string) => join(ROOT, 'examples', name, 'job.weir.json');
const ordersJob = () => JSON.parse(readFileSync(example('orders-per-user'), 'utf8'));

async function rejects(t: { after(fn: () => void): void }, job: unknown, expected: RegExp[]) {
  const dir = tempDir(t);
  const r = await weir(['validate', writeJob(dir, 'job.json', job)]);
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.ok(!hasStackTrace(r.stderr + r.stdout), r.stderr);
  assert.equal(r.stderr, '', 'problems are the result of validate: all on stdout');
  for (const re of expected) assert.match(r.stdout, re);
  return r;
}

test('every example is accepted with exit 0 and a one-line summary', async () => {
  const names = ['orders-per-user', 'clicks-sessions', 'sensor-sliding', 'union-late'];
  const r = await weir(['validate', ...names.map(example)]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, '');
  assert.deepEqual(r.stdout.trim().split('\n'), [
    'orders-per-user: valid (4 nodes, 3 edges, backend fs, checkpoints every 1s)',
    'clicks-sessions: valid (4 nodes, 3 edges, backend rocksdb, checkpoints every 2s)',
    'sensor-sliding: valid (4 nodes, 3 edges, backend memory, checkpoints every 500ms)',
    'union-late: valid (6 nodes, 5 edges, backend fs, checkpoints every 1s)',
  ]);
});

test('broken JSON: one line with the file and the position', async (t) => {
  const dir = tempDir(t);
  const file = writeJob(dir, 'broken.json', '{\n  "format": "weir.job/v1",\n  "name": "x"\n  "nodes": []\n}\n');
  const r = await weir(['validate', file]);
  assert.equal(r.code, 2);
  assert.equal(r.stdout, `${file}: not valid JSON: expected ',' or '}' after property value (line 4, column 3)\n`);
  assert.ok(!hasStackTrace(r.stderr));
});

test('a missing file: one line, exit 2', async () => {
  const r = await weir(['validate', 'no/such/job.json']);
  assert.equal(r.code, 2);
  assert.equal(r.stdout, 'no/such/job.json: cannot read job file: no such file\n');
});

test('an unknown node type lists the known types', async (t) => {
  const job = ordersJob();
  job.nodes[1].type = 'filterz';
  await rejects(t, job, [
    /^nodes\[1\]\.type: unknown node type 'filterz' \(known: source\.file, source\.generator, source\.nexmark, source\.postgres, source\.kafka, filter, map, union, window, join\.interval, join\.window, join, aggregate, topn, sink\.file, sink\.postgres, sink\.kafka, sink\.preview, sink\.blackhole\)$/m,
  ]);
});

test('a dangling edge', async (t) => {
  const job = ordersJob();
  job.edges.push({ from: 'per_user', to: 'x' });
  await rejects(t, job, [/^edges\[3\]\.to: unknown node 'x'$/m]);
});

test('a cycle names its nodes', async (t) => {
  const job = ordersJob();
  job.nodes.push({ id: 'both', type: 'union', config: {} });
  job.edges = [
    { from: 'orders', to: 'both' },
    { from: 'both', to: 'big' },
    { from: 'big', to: 'both' },
    { from: 'big', to: 'per_user' },
    { from: 'per_user', to: 'out' },
  ];
  await rejects(t, job, [/^edges\[\d\]: cycle: (both -> big -> both|big -> both -> big)$/m]);
});

test('a bad expression: path, message and column', async (t) => {
  const job = ordersJob();
  job.nodes[1].config.where = 'amount >=';
  await rejects(t, job, [/^nodes\[1\]\.config\.where: .*'>='.* \(column \d+\)$/m]);
});

test('a window without event time upstream', async (t) => {
  const job = ordersJob();
  delete job.nodes[0].config.eventTime;
  await rejects(t, job, [
    /^nodes\[2\]\.config\.window: window 'per_user' needs event time, but source 'orders' has none: set nodes\[0\]\.config\.eventTime$/m,
  ]);
});

test('an unknown stateBackend lists the allowed values', async (t) => {
  const job = ordersJob();
  job.settings.stateBackend = 'redis';
  await rejects(t, job, [/^settings\.stateBackend: unknown value 'redis' \(allowed: memory, fs, rocksdb\)$/m]);
});

test('every problem is printed, one per line', async (t) => {
  const job = ordersJob();
  job.settings.stateBackend = 'redis';
  job.nodes[3].config.format = 'xml';
  job.bogus = true;
  const r = await rejects(t, job, []);
  assert.equal(r.stdout.trim().split('\n').length, 3, r.stdout);
});

test('warnings do not fail validation; --json prints one object per file', async (t) => {
  const dir = tempDir(t);
  const job = ordersJob();
  job.nodes.push({ id: 'unused', type: 'filter', config: { where: 'amount > 0' } });
  job.edges.push({ from: 'orders', to: 'unused' });
  // With its data beside it, the source's columns are typed from a sample (no "columns unknown" warning).
  cpSync(join(ROOT, 'examples', 'orders-per-user', 'data'), join(dir, 'data'), { recursive: true });
  const file = writeJob(dir, 'job.json', job);
  const r = await weir(['validate', file]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, '');
  assert.equal(
    r.stdout,
    "nodes[4]: warning: the output of 'unused' is not connected: its records go nowhere\n" +
      'orders-per-user: valid (5 nodes, 4 edges, backend fs, checkpoints every 1s, 1 warning)\n',
  );
  const j = await weir(['validate', '--json', file, 'missing.json']);
  assert.equal(j.code, 2);
  const [ok, missing] = j.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.equal(ok.ok, true);
  assert.equal(ok.problems[0].severity, 'warning');
  assert.equal(missing.ok, false);
  assert.equal(missing.problems[0].message, 'cannot read job file: no such file');
});

test('usage errors exit 2: unknown command, unknown option, missing file argument', async () => {
  const unknown = await weir(['frobnicate']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /^weir: unknown command 'frobnicate'\nUsage: weir <command>/);
  const opt = await weir(['validate', '--strict', 'x.json']);
  assert.equal(opt.code, 2);
  assert.match(opt.stderr, /^weir validate: Unknown option '--strict'/);
  assert.ok(!hasStackTrace(opt.stderr));
  const none = await weir(['validate']);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /missing JOB\.json/);
});

test('--help and --version', async () => {
  const help = await weir(['--help']);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /validate JOB\.json/);
  assert.match(help.stdout, /export JOB\.json/);
  const version = await weir(['--version']);
  assert.equal(version.code, 0);
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  assert.equal(version.stdout, `weir ${pkg.version}\n`);
});
