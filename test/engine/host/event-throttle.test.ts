import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { HostEvent, OperatorMetrics } from '../../../engine/host/common/api.ts';
import { createEventThrottle } from '../../../engine/host/node/event-throttle.ts';

const metrics = (n: number): HostEvent => ({
  type: 'metrics',
  runId: 'r',
  time: n,
  operators: [{ nodeId: 'a', subtask: 0, recordsIn: n, recordsOut: n } as OperatorMetrics],
});
const status = (s: 'running' | 'finished'): HostEvent => ({
  type: 'job.status',
  runId: 'r',
  status: s,
  restarts: 0,
  startedAt: 1,
});
const checkpoint = (id: number): HostEvent => ({
  type: 'checkpoint',
  runId: 'r',
  stats: {
    id,
    kind: 'checkpoint',
    status: 'completed',
    triggerTime: 0,
    duration: 1,
    acknowledged: 1,
    total: 1,
    checkpointedBytes: 0,
    fullBytes: 0,
    subtasks: [],
  },
});

describe('event throttle', () => {
  it('coalesces metrics, keeps every status and checkpoint in order, merges previews', () => {
    const batches: HostEvent[][] = [];
    const t = createEventThrottle((e) => batches.push(e), { interval: 60_000, previewLimit: 5 });
    t.push(status('running'));
    for (let i = 0; i < 1000; i++) t.push(metrics(i));
    t.push(checkpoint(1));
    t.push(metrics(1000));
    t.push({ type: 'preview', runId: 'r', target: 'p', records: [1, 2, 3] });
    t.push({ type: 'preview', runId: 'r', target: 'p', records: [4, 5, 6, 7] });
    t.push(checkpoint(2));
    assert.equal(batches.length, 0, 'nothing before the interval');
    t.flush();
    assert.equal(batches.length, 1);
    const got = batches[0];
    assert.deepEqual(
      got.map((e) => e.type),
      ['job.status', 'checkpoint', 'metrics', 'preview', 'checkpoint'],
    );
    assert.equal((got[2] as { time: number }).time, 1000, 'the newest metrics survive');
    assert.deepEqual((got[3] as { records: unknown[] }).records, [3, 4, 5, 6, 7], 'previews merged, newest kept');
    t.close();
  });

  it('delivers a few batches per second, and a terminal status at once', async () => {
    const batches: HostEvent[][] = [];
    const t = createEventThrottle((e) => batches.push(e), { interval: 100 });
    const start = Date.now();
    let i = 0;
    while (Date.now() - start < 450) {
      t.push(metrics(i++));
      await new Promise((r) => setTimeout(r, 2));
    }
    assert.ok(i > 50, `pushed ${i}`);
    assert.ok(batches.length >= 3 && batches.length <= 6, `${batches.length} deliveries in 450ms at 100ms`);
    assert.ok(batches.every((b) => b.length === 1));
    const before = batches.length;
    t.push(metrics(i));
    t.push(status('finished'));
    assert.equal(batches.length, before + 1, 'terminal status flushed synchronously');
    assert.deepEqual(
      batches.at(-1)!.map((e) => e.type),
      ['metrics', 'job.status'],
    );
    t.close();
  });

  it("with firstMetricsAtOnce, delivers the run's first metrics at once and throttles the later ones", () => {
    const batches: HostEvent[][] = [];
    const t = createEventThrottle((e) => batches.push(e), { interval: 60_000, firstMetricsAtOnce: true });
    t.push(status('running'));
    t.push(metrics(1));
    assert.deepEqual(
      batches.map((b) => b.map((e) => e.type)),
      [['job.status', 'metrics']],
      'the status and the first metrics, in order, at once',
    );
    t.push(metrics(2));
    t.push(metrics(3));
    assert.equal(batches.length, 1, 'later metrics wait for the interval');
    t.flush();
    assert.equal((batches[1][0] as { time: number }).time, 3);
    t.close();
  });
});
