/** The typed RunEvent stream of a run: status transitions, metrics per operator subtask, previews. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateJob } from '../../../engine/graph/validate.ts';
import { startJob } from '../../../engine/runtime/job/job-runner.ts';
import type { RunEvent } from '../../../engine/runtime/job/api.ts';
import type { OperatorMetrics } from '../../../engine/host/common/api.ts';
import { tempDir } from '../../support/run-helpers.ts';

test(
  'a bounded run reports statuses, per-subtask metrics with channel watermarks and state, and previews',
  { timeout: 60_000 },
  async () => {
    const { dir, cleanup } = tempDir('events');
    try {
      const v = validateJob(
        {
          format: 'weir.job/v1',
          name: 'events',
          settings: { parallelism: 2, checkpointing: { interval: '100ms' } },
          nodes: [
            {
              id: 'gen',
              type: 'source.generator',
              config: { count: 60_000, rate: 40_000, keys: 4, eventTime: { field: 'ts' } },
            },
            {
              id: 'w',
              type: 'window',
              config: { keyBy: 'key', window: { kind: 'tumbling', size: '1s' }, aggregates: 'COUNT(*) AS n' },
            },
            { id: 'pv', type: 'sink.preview', config: { limit: 3 } },
          ],
          edges: [
            { from: 'gen', to: 'w' },
            { from: 'w', to: 'pv' },
          ],
        },
        { baseDir: dir },
      );
      assert.ok(v.ok);
      const events: RunEvent[] = [];
      const handle = await startJob({ job: v.job, onEvent: (e) => events.push(e), metricsInterval: 100 });
      const result = await handle.done;
      assert.equal(result.status, 'finished');
      const statuses = events.flatMap((e) => (e.type === 'job.status' ? [e.status] : []));
      assert.deepEqual(statuses, ['created', 'running', 'finishing', 'finished']);
      const metrics = events.filter((e): e is Extract<RunEvent, { type: 'metrics' }> => e.type === 'metrics');
      assert.ok(metrics.length >= 3);
      const last = new Map<string, OperatorMetrics>();
      for (const m of metrics) for (const o of m.operators) last.set(`${o.nodeId}#${o.subtask}`, o);
      assert.deepEqual([...last.keys()].sort(), ['gen#0', 'gen#1', 'pv#0', 'pv#1', 'w#0', 'w#1']);
      assert.equal(last.get('gen#0')!.recordsOut + last.get('gen#1')!.recordsOut, 60_000);
      assert.equal(last.get('w#0')!.recordsIn + last.get('w#1')!.recordsIn, 60_000);
      const w0 = last.get('w#0')!;
      assert.deepEqual(
        w0.inputWatermarks.map((c) => c.channel),
        ['gen#0', 'gen#1'],
      );
      assert.ok(
        metrics.some((m) => m.operators.some((o) => o.nodeId === 'w' && o.stateBytes > 0)),
        'window state is reported',
      );
      assert.ok(
        metrics.some((m) => m.operators.some((o) => o.nodeId === 'gen' && o.rateOut > 0)),
        'rates are reported',
      );
      const checkpoints = events.filter((e) => e.type === 'checkpoint' && e.stats.status === 'completed');
      assert.ok(checkpoints.length >= 2);
      const previews = events.filter((e): e is Extract<RunEvent, { type: 'preview' }> => e.type === 'preview');
      assert.ok(previews.length > 0);
      assert.ok(previews.every((p) => p.records.length <= 3 && /^pv#[01]$/.test(p.target)));
      assert.equal(handle.checkpointHistory().filter((c) => c.status === 'completed').length, checkpoints.length);
    } finally {
      cleanup();
    }
  },
);

test(
  'stop() of a running unbounded job (without savepoint) ends it as stopped, promptly',
  { timeout: 30_000 },
  async () => {
    const { dir, cleanup } = tempDir('stop');
    try {
      const v = validateJob(
        {
          format: 'weir.job/v1',
          name: 'forever',
          settings: { parallelism: 2, checkpointing: { interval: '100ms' } },
          nodes: [
            { id: 'gen', type: 'source.generator', config: { keys: 1000, eventTime: { field: 'ts' } } },
            {
              id: 'w',
              type: 'window',
              config: { keyBy: 'key', window: { kind: 'tumbling', size: '1s' }, aggregates: 'COUNT(*) AS n' },
            },
            { id: 'out', type: 'sink.file', config: { path: 'out', format: 'jsonl' } },
          ],
          edges: [
            { from: 'gen', to: 'w' },
            { from: 'w', to: 'out' },
          ],
        },
        { baseDir: dir },
      );
      assert.ok(v.ok);
      let running!: () => void;
      const isRunning = new Promise<void>((r) => {
        running = r;
      });
      const handle = await startJob({
        job: v.job,
        onEvent: (e) => {
          if (e.type === 'job.status' && e.status === 'running') running();
        },
      });
      await isRunning;
      const t0 = Date.now();
      assert.deepEqual(await handle.stop(), {});
      const r = await handle.done;
      assert.equal(r.status, 'stopped');
      assert.ok(Date.now() - t0 < 3000, 'stopped without waiting for the kill timeout');
    } finally {
      cleanup();
    }
  },
);
