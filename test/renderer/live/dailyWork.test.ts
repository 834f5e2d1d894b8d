/**
 * Issue 17's live-panel logic without a browser: a checkpoint the end of the job made moot is
 * discarded, not failed; the run log classifies and keeps what the host reports; the metric
 * history samples once a second and thins its older half when full; canvas drift.
 */
import { describe, it, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import type { CheckpointStats } from '../../../engine/contracts/checkpoint.ts';
import type { HostEvent, OperatorMetrics } from '../../../engine/host/common/api.ts';
import type { JobDocument } from '../../../engine/graph/types.ts';
import { summarizeCheckpoints } from '../../../renderer/src/live/checkpointSummary.ts';
import { isDiscarded, shownStatus } from '../../../renderer/src/stores/checkpointStatus.ts';
import { applyLogEvent, logStore, resetLog } from '../../../renderer/src/stores/logStore.ts';
import {
  applyHistoryEvent,
  clearHistory,
  historyStore,
  HISTORY_POINTS,
} from '../../../renderer/src/stores/historyStore.ts';
import { describeDrift, jobDrift } from '../../../renderer/src/model/drift.ts';

const cp = (id: number, status: CheckpointStats['status'], failureReason?: string): CheckpointStats => ({
  id,
  kind: 'checkpoint',
  status,
  triggerTime: id,
  duration: 1,
  acknowledged: 1,
  total: 2,
  checkpointedBytes: 0,
  fullBytes: 0,
  subtasks: [],
  ...(failureReason ? { failureReason } : {}),
});

describe('a checkpoint pending when the job ended', () => {
  it('is discarded, not failed, and not counted as a failure', () => {
    const list = [cp(1, 'completed'), cp(2, 'failed', 'job ended'), cp(3, 'failed', 'timeout')];
    assert.equal(isDiscarded(list[1]), true);
    assert.equal(shownStatus(list[1]), 'discarded');
    assert.equal(shownStatus(list[2]), 'failed');
    const s = summarizeCheckpoints(list, []);
    assert.equal(s.counts.failed, 1);
    assert.equal(s.latestFailed?.id, 3);
  });
});

describe('run log', () => {
  beforeEach(() => resetLog());
  const ev = (e: Record<string, unknown>) => applyLogEvent({ runId: 'r1', ...e } as HostEvent);

  it('classifies restarts, failed checkpoints, bad records and stderr; ignores other runs', () => {
    ev({ type: 'log', level: 'error', kind: 'stderr', message: 'boom at task.ts:3' });
    ev({ type: 'job.status', status: 'running', restarts: 0, startedAt: 1 });
    ev({ type: 'log', level: 'warn', kind: 'bad-record', message: 'data/x.jsonl:3: invalid JSON' });
    ev({ type: 'checkpoint', stats: cp(4, 'failed', 'declined: memory limit') });
    ev({ type: 'checkpoint', stats: cp(4, 'failed', 'declined: memory limit') });
    ev({ type: 'checkpoint', stats: cp(5, 'failed', 'job ended') });
    ev({ type: 'job.restart', restarts: 1, cause: 'task process died', restoredCheckpoint: 3 });
    applyLogEvent({ type: 'log', runId: 'other', level: 'error', kind: 'stderr', message: 'not ours' });
    const kinds = logStore.getState().entries.map((e) => `${e.kind}:${e.message}`);
    assert.deepEqual(kinds, [
      'stderr:boom at task.ts:3',
      'notice:job started',
      'bad-record:bad record at data/x.jsonl:3: invalid JSON',
      'checkpoint:checkpoint #4 failed: declined: memory limit',
      'restart:restart 1: task process died; from checkpoint #3',
    ]);
  });
});

describe('metric history', () => {
  beforeEach(() => clearHistory());
  const op = (nodeId: string, rateOut: number): OperatorMetrics => ({
    nodeId,
    subtask: 0,
    recordsIn: 0,
    recordsOut: 0,
    rateIn: 0,
    rateOut,
    watermark: null,
    inputWatermarks: [],
    maxEventTime: null,
    lateRecords: 0,
    badRecords: 0,
    stateBytes: 0,
    stateDiskBytes: 0,
    backPressure: 0,
  });
  const tick = (t: number, rate = 1, runId = 'r1') =>
    applyHistoryEvent({ type: 'metrics', runId, time: t, operators: [op('a', rate)] });

  it('keeps one point per second and starts over for a new run', () => {
    tick(1000);
    tick(1250);
    tick(2000);
    tick(2100);
    tick(3000, 7);
    assert.deepEqual(historyStore.getState().time, [1, 2, 3]);
    assert.deepEqual(historyStore.getState().byNode.get('a')?.rateOut, [1, 1, 7]);
    tick(10_000, 1, 'r2');
    assert.deepEqual(historyStore.getState().time, [10]);
  });

  it('thins the older half when full, keeping every series aligned with time', () => {
    for (let i = 0; i <= HISTORY_POINTS; i++) tick(i * 1000, i);
    const s = historyStore.getState();
    assert.ok(s.time.length < HISTORY_POINTS && s.time.length > HISTORY_POINTS / 2, String(s.time.length));
    assert.equal(s.byNode.get('a')!.rateOut.length, s.time.length);
    assert.equal(s.time[s.time.length - 1], HISTORY_POINTS, 'the newest point is kept');
  });
});

describe('drift from the running job', () => {
  const job: JobDocument = {
    format: 'weir.job/v1',
    name: 'j',
    settings: {},
    nodes: [
      { id: 'g', type: 'source.generator', name: 'Gen', position: { x: 0, y: 0 }, config: {} },
      { id: 'p', type: 'sink.preview', name: 'Peek', position: { x: 1, y: 0 }, config: {} },
    ],
    edges: [{ from: 'g', to: 'p' }],
  };

  it('ignores names, positions and annotations; names what changed', () => {
    const moved = {
      ...job,
      nodes: job.nodes.map((n) => ({ ...n, name: `${n.name}!`, position: { x: 9, y: 9 } })),
      notes: [{ id: 'n', text: 'x', position: { x: 0, y: 0 } }],
    };
    assert.equal(jobDrift(job, moved).any, false);
    const edited = { ...job, nodes: [{ ...job.nodes[0], config: { rate: 5 } }], edges: [] } as JobDocument;
    const d = jobDrift(job, edited);
    assert.equal(d.nodes.get('g'), 'changed');
    assert.equal(describeDrift(d), '1 node changed, 1 node removed (Peek), 1 connection removed');
  });
});
