// `weir preview` as a real subprocess: each node's rows over a sample, sinks off, clear errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, hasStackTrace, tempDir, weir, writeJob } from './cli-helpers.ts';

test('weir preview: every node of an example with its rows, and nothing written', async (t) => {
  const dir = tempDir(t);
  cpSync(join(ROOT, 'examples', 'orders-per-user'), dir, { recursive: true });
  const before = readdirSync(dir).sort();
  const r = await weir(['preview', 'job.weir.json', '--records', '50', '--rows', '1'], dir);
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.trim().split('\n');
  assert.match(lines[0], /^orders \(source\.file\): 0 in, 50 out, stopped at 50 records$/);
  assert.ok(
    lines.some((l) => /^big \(filter\): 50 in, \d+ out$/.test(l)),
    r.stdout,
  );
  assert.ok(
    lines.some((l) => /^per_user \(window\): \d+ in, \d+ out/.test(l)),
    r.stdout,
  );
  assert.ok(
    lines.some((l) => l.startsWith('  would write {"window_start"')),
    r.stdout,
  );
  assert.match(lines[lines.length - 1], /^previewed in \d+ ms; nothing written$/);
  assert.deepEqual(readdirSync(dir).sort(), before, 'no output folder, no checkpoints');
  assert.equal(existsSync(join(dir, 'out')), false);
});

test('weir preview --json gives the whole result; bad input is a clear error', async (t) => {
  const dir = tempDir(t);
  cpSync(join(ROOT, 'examples', 'orders-per-user'), dir, { recursive: true });
  const r = await weir(['preview', 'job.weir.json', '--records', '10', '--json'], dir);
  assert.equal(r.code, 0, r.stderr);
  const result = JSON.parse(r.stdout) as { sources: Record<string, { records: number }> };
  assert.deepEqual(result.sources.orders, { records: 10, ended: false });

  const bad = await weir(['preview', 'job.weir.json', '--records', 'many'], dir);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--records and --rows take a whole number/);
  const invalid = await weir(['preview', writeJob(dir, 'bad.json', { format: 'weir.job/v1', nodes: 3 })], dir);
  assert.equal(invalid.code, 2);
  assert.ok(!hasStackTrace(invalid.stderr + invalid.stdout), invalid.stderr);
});

test('weir preview --trace: the path of one record, node by node; a wrong source is named', async (t) => {
  const dir = tempDir(t);
  cpSync(join(ROOT, 'examples', 'orders-per-user'), dir, { recursive: true });
  const r = await weir(['preview', 'job.weir.json', '--trace', 'orders:3'], dir);
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.trim().split('\n');
  assert.match(lines[0], /^record 3 of orders: \{"user":"\w+"/);
  assert.ok(lines.includes('per_user (window)'), r.stdout);
  assert.ok(
    lines.some((l) => l.startsWith('  + write {"window_start"')),
    'the sink row it led to',
  );
  const wrong = await weir(['preview', 'job.weir.json', '--trace', 'nope:1'], dir);
  assert.equal(wrong.code, 2);
  assert.match(
    wrong.stderr,
    /--trace takes SOURCE:INDEX with SOURCE one of the job's node ids \(orders, big, per_user, out\)/,
  );
});
