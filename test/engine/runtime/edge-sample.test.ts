/**
 * Edge samples through a real task process: off by default (no edge previews), on for one output
 * port (source, chained filter, window), capped per message, re-applied after a restart, and off
 * again on request. The JobHandle side of `sampleEdge`; the host side is in test/engine/host/.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateJob } from '../../../engine/graph/validate.ts';
import { startJob } from '../../../engine/runtime/job/job-runner.ts';
import type { JobHandle, RunEvent } from '../../../engine/runtime/job/api.ts';
import { SAMPLE_SIZE } from '../../../engine/runtime/task/edge-sampler.ts';
import { sleep, tempDir } from '../../support/run-helpers.ts';

type Preview = Extract<RunEvent, { type: 'preview' }>;

function job(dir: string, attempts = 0) {
  const v = validateJob(
    {
      format: 'weir.job/v1',
      name: 'sampled',
      settings: { parallelism: 2, checkpointing: { interval: '200ms' }, restart: { attempts, delay: '50ms' } },
      nodes: [
        { id: 'gen', type: 'source.generator', config: { keys: 50, rate: 5000, eventTime: { field: 'ts' } } },
        { id: 'big', type: 'filter', config: { where: 'value >= 500' } },
        {
          id: 'w',
          type: 'window',
          config: { keyBy: 'key', window: { kind: 'tumbling', size: '200ms' }, aggregates: 'COUNT(*) AS n' },
        },
        { id: 'out', type: 'sink.file', config: { path: 'out', format: 'jsonl' } },
      ],
      edges: [
        { from: 'gen', to: 'big' },
        { from: 'big', to: 'w' },
        { from: 'w', to: 'out' },
      ],
    },
    { baseDir: dir },
  );
  assert.ok(v.ok, JSON.stringify(!v.ok && v.problems));
  return v.job;
}

async function until(events: RunEvent[], what: string, pred: (e: RunEvent) => boolean, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!events.some(pred)) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/** Waits for `n` more metrics reports: the task process's own clock, whatever the machine's load. */
async function ticks(events: RunEvent[], n: number): Promise<void> {
  const target = events.filter((e) => e.type === 'metrics').length + n;
  await until(events, `${n} metrics reports`, () => events.filter((e) => e.type === 'metrics').length >= target);
}

const edgePreviews = (events: RunEvent[], prefix: string) =>
  events.filter((e): e is Preview => e.type === 'preview' && e.target.startsWith(prefix));

test(
  'sampleEdge: off by default, then the newest records of a source, a chained filter and a window output',
  { timeout: 60_000 },
  async () => {
    const { dir, cleanup } = tempDir('sample');
    let handle: JobHandle | null = null;
    try {
      const events: RunEvent[] = [];
      handle = await startJob({ job: job(dir), onEvent: (e) => events.push(e), metricsInterval: 100 });
      await until(events, 'running', (e) => e.type === 'job.status' && e.status === 'running');
      await ticks(events, 5);
      assert.equal(events.filter((e) => e.type === 'preview').length, 0, 'no samples before anyone asked');

      handle.sampleEdge({ nodeId: 'gen', port: 'out', on: true });
      handle.sampleEdge({ nodeId: 'big', port: 'out', on: true });
      handle.sampleEdge({ nodeId: 'w', port: 'out', on: true });
      await until(events, 'source samples', (e) => e.type === 'preview' && e.target === 'edge:gen.out#1');
      await until(events, 'filter samples', (e) => e.type === 'preview' && e.target.startsWith('edge:big.out#'));
      await until(events, 'window samples', (e) => e.type === 'preview' && e.target.startsWith('edge:w.out#'));

      const gen = edgePreviews(events, 'edge:gen.out#');
      assert.ok(gen.every((p) => p.records.length > 0 && p.records.length <= SAMPLE_SIZE));
      for (const r of gen.flatMap((p) => p.records) as Array<Record<string, unknown>>) {
        assert.deepEqual(Object.keys(r).sort(), ['key', 'seq', 'ts', 'value']);
      }
      // The chained filter's output: only what passed its predicate.
      const big = edgePreviews(events, 'edge:big.out#').flatMap((p) => p.records) as Array<{ value: number }>;
      assert.ok(big.length > 0 && big.every((r) => r.value >= 500), JSON.stringify(big.slice(0, 3)));
      const win = edgePreviews(events, 'edge:w.out#').flatMap((p) => p.records) as Array<{ n: number }>;
      assert.ok(win.every((r) => typeof r.n === 'number' && r.n > 0));

      // Off: the samples stop (one in flight may still arrive).
      handle.sampleEdge({ nodeId: 'gen', port: 'out', on: false });
      await ticks(events, 3);
      const count = edgePreviews(events, 'edge:gen.out#').length;
      await ticks(events, 6);
      assert.equal(edgePreviews(events, 'edge:gen.out#').length, count, 'no more source samples once off');
      assert.ok(edgePreviews(events, 'edge:big.out#').length > 0);

      assert.throws(() => handle!.sampleEdge({ nodeId: 'nope', port: 'out', on: true }), /no node 'nope'/);
      assert.throws(
        () => handle!.sampleEdge({ nodeId: 'big', port: 'late', on: true }),
        /node 'big' \(filter\) has outputs 'out', not 'late'/,
      );
      assert.throws(() => handle!.sampleEdge({ nodeId: 'out', port: 'out', on: true }), /has no outputs/);
    } finally {
      await handle?.stop();
      cleanup();
    }
  },
);

test('sampleEdge survives a restart of the task process', { timeout: 60_000 }, async () => {
  const { dir, cleanup } = tempDir('sample-restart');
  let handle: JobHandle | null = null;
  try {
    const events: RunEvent[] = [];
    handle = await startJob({ job: job(dir, 2), onEvent: (e) => events.push(e), metricsInterval: 100 });
    await until(events, 'running', (e) => e.type === 'job.status' && e.status === 'running');
    handle.sampleEdge({ nodeId: 'gen', port: 'out', on: true });
    await until(events, 'samples', (e) => e.type === 'preview');
    handle.killTaskProcess();
    await until(events, 'the restart', (e) => e.type === 'job.restart');
    const at = events.length;
    await until(
      events,
      'samples after the restart',
      (e) => events.indexOf(e) > at && e.type === 'preview' && e.target.startsWith('edge:gen.out#'),
    );
  } finally {
    await handle?.stop();
    cleanup();
  }
});
