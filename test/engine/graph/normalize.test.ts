import { test } from 'node:test';
import assert from 'node:assert/strict';
import { normalizeJob, toJobDocument } from '../../../engine/graph/normalize.ts';
import { validateJob } from '../../../engine/graph/validate.ts';
import { DEFAULT_SETTINGS, type JobDocument } from '../../../engine/graph/types.ts';
import { baseJob } from './job-builders.ts';

test('omitted settings take the defaults; checkpointing is off without an interval', () => {
  const doc = baseJob();
  delete doc.settings;
  const job = normalizeJob(doc);
  assert.deepEqual(job.settings, DEFAULT_SETTINGS);
  assert.equal(job.settings.checkpointing.interval, null);
  assert.notEqual(job.settings, DEFAULT_SETTINGS, 'defaults are copied, not shared');
  assert.notEqual(job.settings.checkpointing, DEFAULT_SETTINGS.checkpointing);
});

test('durations become milliseconds and sizes bytes, in settings and node configs', () => {
  const doc = baseJob();
  doc.settings = {
    stateBackend: 'rocksdb',
    memoryStateLimit: '1mb',
    parallelism: 2,
    checkpointing: { interval: '2s', timeout: '1m', minPause: 100 },
    restart: { delay: '3s' },
  };
  const w = doc.nodes[2].config as { window: unknown; allowedLateness?: unknown };
  w.window = { kind: 'sliding', size: '10s', slide: '5s' };
  w.allowedLateness = '1s';
  const job = normalizeJob(doc, '/jobs');
  assert.equal(job.baseDir, '/jobs');
  assert.deepEqual(job.settings, {
    stateBackend: 'rocksdb',
    checkpointing: {
      interval: 2000,
      mode: 'exactly-once',
      timeout: 60_000,
      minPause: 100,
      retained: 1,
      incremental: false,
      dir: 'checkpoints',
      tolerableFailures: 0,
    },
    memoryStateLimit: 1024 * 1024,
    parallelism: 2,
    maxParallelism: 128,
    restart: { attempts: 3, delay: 3000 },
  });
  assert.deepEqual(job.nodes[0].config, {
    path: 'data/orders.jsonl',
    format: 'jsonl',
    columns: { user: 'STRING', amount: 'DOUBLE', ts: 'BIGINT' },
    eventTime: { field: 'ts', maxOutOfOrderness: 5000 },
  });
  assert.deepEqual(job.nodes[2].config, {
    keyBy: 'user',
    window: { kind: 'sliding', size: 10_000, slide: 5000 },
    aggregates: 'COUNT(*) AS n, SUM(amount) AS total',
    allowedLateness: 1000,
  });
  assert.deepEqual(
    job.nodes.map((n) => n.parallelism),
    [2, 2, 2, 2],
    "node parallelism defaults to the job's",
  );
  assert.deepEqual(
    job.edges.map((e) => e.fromPort),
    ['out', 'out', 'out'],
  );
  // The input document is not modified.
  assert.equal((doc.nodes[2].config as { allowedLateness: unknown }).allowedLateness, '1s');
});

test('generator and session durations are normalized; explicit node parallelism is kept', () => {
  const doc: JobDocument = {
    format: 'weir.job/v1',
    name: 'g',
    nodes: [
      {
        id: 'g',
        type: 'source.generator',
        parallelism: 3,
        config: { outOfOrderness: '250ms', eventTime: { field: 'ts', idleTimeout: '1m' } },
      },
      { id: 'w', type: 'window', config: { window: { kind: 'session', gap: '30s' }, aggregates: 'COUNT(*) AS n' } },
      { id: 'o', type: 'sink.preview', config: {} },
    ],
    edges: [
      { from: 'g', to: 'w' },
      { from: 'w', to: 'o', fromPort: 'late' },
    ],
  };
  const job = normalizeJob(doc);
  assert.deepEqual(job.nodes[0].config, { outOfOrderness: 250, eventTime: { field: 'ts', idleTimeout: 60_000 } });
  assert.deepEqual((job.nodes[1].config as { window: unknown }).window, { kind: 'session', gap: 30_000 });
  assert.deepEqual(
    job.nodes.map((n) => n.parallelism),
    [3, 1, 1],
  );
  assert.equal(job.edges[0].fromPort, 'out');
  assert.equal(job.edges[1].fromPort, 'late');
});

test('toJobDocument writes durations back as strings and validates to the same job', () => {
  const doc = baseJob();
  (doc.nodes[2].config as { allowedLateness?: unknown }).allowedLateness = 1500;
  const first = validateJob(doc);
  assert.ok(first.ok);
  const back = toJobDocument(first.job);
  assert.equal(back.settings?.checkpointing?.interval, '1s');
  assert.equal(back.settings?.checkpointing?.timeout, '10m');
  assert.equal(back.settings?.memoryStateLimit, '5mb');
  assert.equal((back.nodes[2].config as { allowedLateness: unknown }).allowedLateness, '1500ms');
  assert.equal(
    (back.nodes[0].config as { eventTime: { maxOutOfOrderness: unknown } }).eventTime.maxOutOfOrderness,
    '5s',
  );
  const again = validateJob(JSON.parse(JSON.stringify(back)));
  assert.ok(again.ok, JSON.stringify(again.problems));
  assert.deepEqual(again.job, first.job);
});

test('with checkpointing off the written document has no interval', () => {
  const doc = baseJob();
  delete doc.settings;
  const back = toJobDocument(normalizeJob(doc));
  assert.equal(back.settings?.checkpointing && 'interval' in back.settings.checkpointing, false);
  assert.equal(normalizeJob(back).settings.checkpointing.interval, null);
});
