/**
 * The heap backends' memory limit (engine/state/heap-memory-guard.ts): state that outgrows the
 * heap it may use fails with an error naming the operator and the limit, before V8 thrashes or
 * aborts. Small limits here, never millions of keys.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getHeapStatistics } from 'node:v8';
import { HeapStateBackend } from '../../../engine/state/heap.ts';
import { HeapStateLimitError, defaultHeapStateLimit } from '../../../engine/state/heap-memory-guard.ts';
import { validateJob } from '../../../engine/graph/validate.ts';
import { startJob } from '../../../engine/runtime/job/job-runner.ts';
import { tempDir } from '../../support/run-helpers.ts';
import { sk } from './conformance.ts';

const RANGE = { start: 0, end: 127 };

test('a heap backend whose state grows past its limit fails with an error naming the operator and the limit', async () => {
  const limit = getHeapStatistics().used_heap_size + 48 * 1024 * 1024;
  const backend = new HeapStateBackend({
    kind: 'memory',
    keyGroupRange: RANGE,
    operatorId: 'win',
    subtask: 3,
    heapLimitBytes: limit,
  });
  const t = backend.table<{ n: number; text: string }>('windows');
  let written = 0;
  let error: unknown;
  try {
    for (let i = 0; i < 200; i++) {
      const batch: Array<[string, { n: number; text: string }]> = [];
      for (let j = 0; j < 10_000; j++, written++)
        batch.push([sk(`k${written}`), { n: written, text: 'x'.repeat(40) + written }]);
      await t.writeMany(batch);
    }
  } catch (e) {
    error = e;
  }
  assert.ok(
    error instanceof HeapStateLimitError,
    `expected HeapStateLimitError after ${written} entries, got ${String(error)}`,
  );
  assert.match(error.message, /operator 'win' subtask 3: keyed state of [\d,]+ entries/);
  assert.match(error.message, /past the heap state limit of \d+ MB/);
  assert.match(
    error.message,
    /'memory' state backend keeps all keyed state on the JavaScript heap: use stateBackend 'rocksdb'/,
  );
  // It stopped near the limit, not after filling the whole 2M-entry run.
  assert.ok(written < 2_000_000, `stopped after ${written} entries`);
  await backend.dispose();
});

test('the default limit is 80% of the V8 old space and small state never trips it', async () => {
  const backend = new HeapStateBackend({ kind: 'memory', keyGroupRange: RANGE, operatorId: 'win', subtask: 0 });
  assert.equal(backend.memoryGuard.limitBytes, defaultHeapStateLimit());
  assert.ok(defaultHeapStateLimit() < getHeapStatistics().heap_size_limit * 0.8);
  const t = backend.table<number>('t');
  for (let i = 0; i < 5; i++) await t.writeMany(Array.from({ length: 10_000 }, (_, j) => [sk(`k${j}`), i] as const));
  assert.deepEqual(await t.getMany([sk('k1')]), [4]);
});

test(
  'a job whose heap state outgrows a small task heap fails clearly, naming the node and the limit',
  { timeout: 90_000 },
  async () => {
    const { dir, cleanup } = tempDir('heap-limit-job');
    const before = process.env.WEIR_TASK_NODE_ARGS;
    process.env.WEIR_TASK_NODE_ARGS = '--max-old-space-size=160';
    try {
      const v = validateJob(
        {
          format: 'weir.job/v1',
          name: 'heap-limit',
          settings: { parallelism: 1, stateBackend: 'memory', restart: { attempts: 0 } },
          nodes: [
            {
              id: 'gen',
              type: 'source.generator',
              config: { keys: 300_000, count: 5_000_000, eventTime: { field: 'ts' } },
            },
            {
              id: 'win',
              type: 'window',
              // 24 windows per record: state grows by ~24 entries a record (the generator's key-name
              // table of 300K strings stays small next to it).
              config: {
                keyBy: 'key',
                window: { kind: 'sliding', size: '1d', slide: '1h' },
                aggregates: 'COUNT(*) AS n',
              },
            },
            { id: 'out', type: 'sink.file', config: { path: 'out', format: 'jsonl' } },
          ],
          edges: [
            { from: 'gen', to: 'win' },
            { from: 'win', to: 'out' },
          ],
        },
        { baseDir: dir },
      );
      assert.ok(v.ok, JSON.stringify(!v.ok && v.problems));
      const handle = await startJob({ job: v.job, onEvent: () => undefined });
      const r = await handle.done;
      assert.equal(r.status, 'failed');
      assert.match(
        r.cause ?? '',
        /operator 'win' subtask 0: keyed state of [\d,]+ entries .* past the heap state limit of \d+ MB/,
      );
    } finally {
      if (before === undefined) delete process.env.WEIR_TASK_NODE_ARGS;
      else process.env.WEIR_TASK_NODE_ARGS = before;
      cleanup();
    }
  },
);
