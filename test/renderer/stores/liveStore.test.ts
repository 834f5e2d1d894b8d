import { describe, it, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import type { CheckpointStats } from '../../../engine/contracts/checkpoint.ts';
import type { JobDocument } from '../../../engine/graph/types.ts';
import {
  applyLiveEvent,
  beginRun,
  liveStore,
  PREVIEW_CAP,
  previewNode,
  setRunId,
  upsertCheckpoint,
} from '../../../renderer/src/stores/liveStore.ts';
import { effectiveSettings, runConfig } from '../../../renderer/src/stores/runConfig.ts';
import { previewTarget } from '../../../renderer/src/live/previewTarget.ts';

const job: JobDocument = {
  format: 'weir.job/v1',
  name: 'j',
  settings: {
    stateBackend: 'fs',
    checkpointing: { interval: '500ms', incremental: true },
    memoryStateLimit: '1mb',
    restart: { delay: '2s' },
  },
  nodes: [
    { id: 'g', type: 'source.generator', config: {} },
    {
      id: 'w',
      type: 'window',
      config: { keyBy: 'k', window: { kind: 'tumbling', size: '1s' }, aggregates: 'COUNT(*) AS n' },
    },
    { id: 'f', type: 'sink.file', config: { path: 'o', format: 'jsonl' } },
    { id: 'p', type: 'sink.preview', config: {} },
  ],
  edges: [
    { from: 'g', to: 'w' },
    { from: 'w', to: 'f' },
    { from: 'w', to: 'p' },
  ],
};

function cp(id: number, status: CheckpointStats['status']): CheckpointStats {
  return {
    id,
    kind: 'checkpoint',
    status,
    triggerTime: id,
    duration: null,
    acknowledged: 0,
    total: 1,
    checkpointedBytes: 0,
    fullBytes: 0,
    subtasks: [],
  };
}

describe('liveStore', () => {
  beforeEach(() => beginRun(runConfig(job, null, null)));

  it('keeps one entry per checkpoint id, in id order', () => {
    let l = upsertCheckpoint([], cp(2, 'in_progress'));
    l = upsertCheckpoint(l, cp(1, 'completed'));
    l = upsertCheckpoint(l, cp(2, 'completed'));
    l = upsertCheckpoint(l, cp(3, 'in_progress'));
    assert.deepEqual(
      l.map((c) => [c.id, c.status]),
      [
        [1, 'completed'],
        [2, 'completed'],
        [3, 'in_progress'],
      ],
    );
  });

  it("takes the first event's run, ignores other runs' events, records restarts as restores", () => {
    applyLiveEvent({ type: 'checkpoint', runId: 'r1', stats: cp(1, 'completed') });
    applyLiveEvent({ type: 'checkpoint', runId: 'old', stats: cp(9, 'completed') });
    applyLiveEvent({ type: 'job.restart', runId: 'r1', restarts: 1, cause: 'killed', restoredCheckpoint: 1 });
    const s = liveStore.getState();
    assert.equal(s.runId, 'r1');
    assert.deepEqual(
      s.checkpoints.map((c) => c.id),
      [1],
    );
    assert.deepEqual(
      s.restores.map((r) => [r.id, r.cause]),
      [[1, 'killed']],
    );
  });

  it('a run started from a path learns the restored id from its first checkpoint (ids continue at id + 1)', () => {
    beginRun(runConfig(job, 'rocksdb', '/w/checkpoints/j/savepoints/sp-7-1'));
    applyLiveEvent({ type: 'checkpoint', runId: 'r2', stats: cp(8, 'in_progress') });
    assert.equal(liveStore.getState().restores[0].id, 7);
    assert.equal(liveStore.getState().config?.settings.stateBackend, 'rocksdb');
    assert.equal(liveStore.getState().config?.backendSource, 'override');
  });

  it('fails checkpoints still pending when the run ends', () => {
    applyLiveEvent({ type: 'checkpoint', runId: 'r', stats: cp(1, 'completed') });
    applyLiveEvent({ type: 'checkpoint', runId: 'r', stats: cp(2, 'in_progress') });
    applyLiveEvent({ type: 'job.status', runId: 'r', status: 'failed', restarts: 0, startedAt: 0, cause: 'x' });
    assert.deepEqual(
      liveStore.getState().checkpoints.map((c) => [c.id, c.status, c.failureReason]),
      [
        [1, 'completed', undefined],
        [2, 'failed', 'abandoned: the job failed before it completed'],
      ],
    );
  });

  it('merges preview samples per node across subtasks, capped', () => {
    applyLiveEvent({
      type: 'preview',
      runId: 'r',
      target: 'p#0',
      records: Array.from({ length: 40 }, (_, i) => ({ i })),
    });
    applyLiveEvent({
      type: 'preview',
      runId: 'r',
      target: 'p#1',
      records: Array.from({ length: 40 }, (_, i) => ({ i: 100 + i })),
    });
    const rows = liveStore.getState().previews.get('p')!;
    assert.equal(rows.length, PREVIEW_CAP);
    assert.deepEqual(rows[rows.length - 1], { i: 139 });
    assert.equal(previewNode('a#b#3'), 'a#b');
  });

  it('drops what an older run left once the host names the new run', () => {
    applyLiveEvent({ type: 'checkpoint', runId: 'old', stats: cp(5, 'completed') });
    setRunId('new');
    assert.equal(liveStore.getState().runId, 'new');
    assert.deepEqual(liveStore.getState().checkpoints, []);
  });
});

describe('runConfig', () => {
  it('applies defaults and parses durations and sizes', () => {
    const s = effectiveSettings(job);
    assert.equal(s.stateBackend, 'fs');
    assert.equal(s.checkpointing.interval, 500);
    assert.equal(s.checkpointing.incremental, true);
    assert.equal(s.memoryStateLimit, 1024 * 1024);
    assert.equal(s.restart.delay, 2000);
    assert.equal(s.restart.attempts, 3);
    assert.equal(effectiveSettings({ ...job, settings: {} }).checkpointing.interval, null);
  });
});

describe('previewTarget', () => {
  const none = new Set<string>();
  it('a preview node, an edge into one, or an edge whose sender also feeds one', () => {
    assert.equal(previewTarget(job.nodes, job.edges, new Set(['p']), none).nodeId, 'p');
    assert.equal(previewTarget(job.nodes, job.edges, none, new Set(['w.out->p'])).nodeId, 'p');
    assert.equal(previewTarget(job.nodes, job.edges, none, new Set(['w.out->f'])).nodeId, 'p');
    const t = previewTarget(job.nodes, job.edges, none, new Set(['g.out->w']));
    assert.equal(t.nodeId, null);
    assert.match(t.label, /g → w/);
  });
  it('any other edge or node output is an edge sample to switch on', () => {
    const t = previewTarget(job.nodes, job.edges, none, new Set(['g.out->w']));
    assert.equal(t.key, 'edge:g.out');
    assert.deepEqual(t.edge, { from: 'g', fromPort: 'out', to: 'w' });
    const n = previewTarget(job.nodes, job.edges, new Set(['g']), none);
    assert.equal(n.key, 'edge:g.out');
    assert.deepEqual(n.edge, { from: 'g', fromPort: 'out' });
    assert.equal(previewTarget(job.nodes, job.edges, new Set(['p']), none).edge, null);
  });
});
