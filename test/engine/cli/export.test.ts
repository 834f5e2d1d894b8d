// `weir export` as a real subprocess: the json export is a complete weir.job/v1 document that
// validates again to the same normalized job.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateJob } from '../../../engine/graph/validate.ts';
import { ROOT, hasStackTrace, tempDir, weir, writeJob } from './cli-helpers.ts';

const EXAMPLES = ['orders-per-user', 'clicks-sessions', 'sensor-sliding', 'union-late'];

for (const name of EXAMPLES) {
  test(`export --format json round trip: ${name}`, async (t) => {
    const dir = tempDir(t);
    const src = join(ROOT, 'examples', name, 'job.weir.json');
    const out = join(dir, 'exported.json');
    const r = await weir(['export', src, '--format', 'json', '-o', out]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, '');
    const exported = JSON.parse(readFileSync(out, 'utf8'));
    // Defaults are filled in and durations are strings again.
    assert.equal(exported.format, 'weir.job/v1');
    assert.equal(typeof exported.settings.checkpointing.timeout, 'string');
    assert.equal(typeof exported.settings.memoryStateLimit, 'string');
    assert.equal(typeof exported.settings.restart.delay, 'string');
    for (const n of exported.nodes) assert.equal(typeof n.parallelism, 'number');
    for (const e of exported.edges) assert.ok(e.fromPort === 'out' || e.fromPort === 'late');

    const again = await weir(['validate', out]);
    assert.equal(again.code, 0, again.stderr);
    const original = validateJob(JSON.parse(readFileSync(src, 'utf8')));
    const reloaded = validateJob(exported);
    assert.ok(original.ok && reloaded.ok);
    assert.deepEqual(reloaded.job, original.job);
  });
}

test('export json to stdout by default; bad jobs and formats exit 2 without a stack trace', async (t) => {
  const src = join(ROOT, 'examples', 'sensor-sliding', 'job.weir.json');
  const r = await weir(['export', src]);
  assert.equal(r.code, 0, r.stderr);
  const doc = JSON.parse(r.stdout);
  assert.equal(doc.name, 'sensor-sliding');
  assert.equal(doc.settings.checkpointing.interval, '500ms');
  assert.equal(doc.nodes[2].config.window.size, '10s');
  assert.ok(!('baseDir' in doc), 'baseDir is not part of the document');

  const fmt = await weir(['export', src, '--format', 'yaml']);
  assert.equal(fmt.code, 2);
  assert.equal(fmt.stderr, "weir export: unknown format 'yaml' (allowed: json, flink-sql)\n");

  const dir = tempDir(t);
  const bad = writeJob(dir, 'bad.json', {
    format: 'weir.job/v1',
    name: 'x',
    nodes: [],
    edges: [],
    settings: { stateBackend: 'disk' },
  });
  const b = await weir(['export', bad, '--format', 'json']);
  assert.equal(b.code, 2);
  assert.equal(b.stdout, '');
  assert.match(b.stderr, /^settings\.stateBackend: unknown value 'disk' \(allowed: memory, fs, rocksdb\)$/m);
  assert.ok(!hasStackTrace(b.stderr));
});

test('export --format flink-sql prints a Flink SQL script (warnings on stderr)', async () => {
  const src = join(ROOT, 'examples', 'orders-per-user', 'job.weir.json');
  const r = await weir(['export', src, '--format', 'flink-sql']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /CREATE TABLE/i);
  assert.match(r.stdout, /INSERT INTO/i);
  assert.ok(!hasStackTrace(r.stderr));
});
