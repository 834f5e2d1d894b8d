import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { EngineHost, RunInfo } from '../../../engine/host/common/api.ts';
import type { CheckpointStats } from '../../../engine/contracts/checkpoint.ts';
import { docStore } from '../../../renderer/src/state.ts';
import { runStore } from '../../../renderer/src/stores/runStore.ts';
import { liveStore } from '../../../renderer/src/stores/liveStore.ts';
import { adoptActiveRun } from '../../../renderer/src/live/recoverRun.ts';

const stats = (id: number): CheckpointStats => ({
  id,
  kind: 'checkpoint',
  status: 'completed',
  triggerTime: id,
  duration: 1,
  acknowledged: 1,
  total: 1,
  checkpointedBytes: 1,
  fullBytes: 1,
  subtasks: [],
});

describe('adoptActiveRun', () => {
  it("picks up the open job's active run with its backend and checkpoint history; ignores other jobs and ended runs", async () => {
    docStore
      .getState()
      .load({ format: 'weir.job/v1', name: 'mine', settings: { stateBackend: 'fs' }, nodes: [], edges: [] }, null);
    const runs: RunInfo[] = [
      { runId: 'other', jobName: 'theirs', status: 'running', startedAt: 5, restarts: 0 },
      { runId: 'old', jobName: 'mine', status: 'stopped', startedAt: 1, restarts: 0 },
      {
        runId: 'live',
        jobName: 'mine',
        status: 'running',
        startedAt: 3,
        restarts: 2,
        stateBackend: 'rocksdb',
        memoryStateLimit: 4096,
      },
    ];
    const host = {
      listRuns: async () => runs,
      checkpointHistory: async ({ runId }: { runId: string }) => (runId === 'live' ? [stats(1), stats(2)] : []),
    } as unknown as EngineHost;
    assert.equal(await adoptActiveRun(host), 'live');
    const r = runStore.getState();
    assert.deepEqual([r.runId, r.status, r.restarts, r.startedAt], ['live', 'running', 2, 3]);
    assert.equal(liveStore.getState().config?.settings.stateBackend, 'rocksdb');
    assert.equal(liveStore.getState().config?.settings.memoryStateLimit, 4096, "the run's limit, not the document's");
    assert.deepEqual(
      liveStore.getState().checkpoints.map((c) => c.id),
      [1, 2],
    );
    assert.equal(await adoptActiveRun(host), null, 'a run already known is kept');
  });

  it('adopts only the run of the open document: same name and path, an unsaved one only runs without a path', async () => {
    runStore.setState({ runId: null });
    const job = { format: 'weir.job/v1' as const, name: 'mine', nodes: [], edges: [] };
    const runs: RunInfo[] = [
      {
        runId: 'copy',
        jobName: 'mine',
        document: '/w/copy/mine.weir.json',
        status: 'running',
        startedAt: 9,
        restarts: 0,
      },
      { runId: 'draft', jobName: 'mine', status: 'running', startedAt: 8, restarts: 0 },
      { runId: 'own', jobName: 'mine', document: '/w/mine.weir.json', status: 'running', startedAt: 1, restarts: 0 },
    ];
    const host = { listRuns: async () => runs, checkpointHistory: async () => [] } as unknown as EngineHost;
    docStore.getState().load(job, '/w/mine.weir.json');
    assert.equal(await adoptActiveRun(host), 'own');
    runStore.setState({ runId: null });
    docStore.getState().load(job, null);
    assert.equal(await adoptActiveRun(host), 'draft');
    runStore.setState({ runId: null });
    docStore.getState().load(job, '/w/other/mine.weir.json');
    assert.equal(await adoptActiveRun(host), null);
  });
});
