import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CheckpointStats, SubtaskCheckpointStats } from '../../../engine/contracts/checkpoint.ts';
import {
  chartPoints,
  lastSubtaskSnapshot,
  limitSnapshot,
  operatorDetails,
  summarizeCheckpoints,
} from '../../../renderer/src/live/checkpointSummary.ts';

function sub(operatorId: string, subtask: number, o: Partial<SubtaskCheckpointStats> = {}): SubtaskCheckpointStats {
  return {
    operatorId,
    subtask,
    startDelay: 0,
    alignmentDuration: 0,
    syncDuration: 0,
    asyncDuration: 0,
    checkpointedBytes: 10,
    fullBytes: 20,
    ...o,
  };
}
function cp(id: number, status: CheckpointStats['status'], o: Partial<CheckpointStats> = {}): CheckpointStats {
  return {
    id,
    kind: 'checkpoint',
    status,
    triggerTime: 1000 * id,
    duration: status === 'in_progress' ? null : 5 * id,
    acknowledged: 2,
    total: 2,
    checkpointedBytes: 100 * id,
    fullBytes: 200 * id,
    subtasks: [],
    ...o,
  };
}

describe('summarizeCheckpoints', () => {
  it('counts each status and keeps the latest of each kind', () => {
    const list = [
      cp(1, 'completed'),
      cp(2, 'failed', { failureReason: 'timeout' }),
      cp(3, 'completed', { kind: 'savepoint' }),
      cp(4, 'completed'),
      cp(5, 'in_progress'),
    ];
    const s = summarizeCheckpoints(list, []);
    assert.deepEqual(s.counts, { triggered: 5, inProgress: 1, completed: 3, failed: 1, restored: 0 });
    assert.equal(s.latestCompleted?.id, 4);
    assert.equal(s.latestFailed?.failureReason, 'timeout');
    assert.equal(s.latestSavepoint?.id, 3);
    assert.equal(s.latestRestore, null);
  });

  it('counts restores from a checkpoint, not restarts from scratch', () => {
    const s = summarizeCheckpoints(
      [],
      [
        { id: 4, source: 'automatic restart', time: 10, cause: 'killed' },
        { id: null, source: 'no checkpoint (from the start)', time: 20, cause: 'killed' },
      ],
    );
    assert.equal(s.counts.restored, 1);
    assert.equal(s.latestRestore, null, 'the latest restart restored nothing');
    const t = summarizeCheckpoints(
      [],
      [{ id: 7, source: '/w/checkpoints/j/savepoints/sp-7-1', time: 30, cause: null }],
    );
    assert.deepEqual(t.latestRestore, {
      id: 7,
      kind: 'savepoint',
      location: '/w/checkpoints/j/savepoints/sp-7-1',
      restoreTime: 30,
    });
  });
});

describe('chartPoints and details', () => {
  it('charts finished checkpoints only, oldest first, capped', () => {
    const list = [cp(1, 'completed'), cp(2, 'failed'), cp(3, 'in_progress')];
    assert.deepEqual(
      chartPoints(list).map((p) => [p.id, p.failed]),
      [
        [1, false],
        [2, true],
      ],
    );
    const many = Array.from({ length: 200 }, (_, i) => cp(i + 1, 'completed'));
    const pts = chartPoints(many, 120);
    assert.equal(pts.length, 120);
    assert.equal(pts[0].id, 81);
  });

  it('groups subtasks per operator in job order with the worst subtask per column and summed sizes', () => {
    const c = cp(1, 'completed', {
      subtasks: [
        sub('w', 1, { syncDuration: 9, checkpointedBytes: 5 }),
        sub('g', 0),
        sub('w', 0, { alignmentDuration: 4, asyncDuration: 7 }),
      ],
    });
    const d = operatorDetails(c, ['g', 'w']);
    assert.deepEqual(
      d.map((o) => o.operatorId),
      ['g', 'w'],
    );
    assert.deepEqual(
      d[1].subtasks.map((s) => s.subtask),
      [0, 1],
    );
    assert.deepEqual(d[1].max, { startDelay: 0, alignmentDuration: 4, syncDuration: 9, asyncDuration: 7 });
    assert.equal(d[1].checkpointedBytes, 15);
    assert.equal(d[1].fullBytes, 40);
  });

  it('finds the last completed checkpoint of a subtask, skipping failed and running ones', () => {
    const list = [
      cp(1, 'completed', { subtasks: [sub('w', 0, { checkpointedBytes: 1 })] }),
      cp(2, 'failed', { subtasks: [sub('w', 0, { checkpointedBytes: 2 })] }),
      cp(3, 'in_progress'),
    ];
    assert.equal(lastSubtaskSnapshot(list, 'w', 0)?.checkpointedBytes, 1);
    assert.equal(lastSubtaskSnapshot(list, 'w', 1), null);
  });
});

describe('limitSnapshot', () => {
  it('the last completed snapshot, unless a later checkpoint refused this subtask for its size', () => {
    const ok = cp(1, 'completed', { subtasks: [sub('w', 0, { fullBytes: 900 }), sub('w', 1, { fullBytes: 800 })] });
    const refused = cp(2, 'failed', { subtasks: [sub('w', 1, { fullBytes: 20_000, limitBytes: 16_384 })] });
    const timeout = cp(3, 'failed', { subtasks: [sub('w', 0, { fullBytes: 1 })] });
    const list = [ok, refused, timeout, cp(4, 'in_progress')];
    assert.deepEqual(limitSnapshot(list, 'w', 0), { stats: ok.subtasks[0], refused: false });
    assert.deepEqual(limitSnapshot(list, 'w', 1), { stats: refused.subtasks[0], refused: true });
    assert.equal(limitSnapshot([cp(1, 'failed')], 'w', 0), null);
  });
});
