/**
 * After a page reload (or a second window, or reopening a document whose job still runs): adopt
 * that run, so status, controls and the checkpoint history continue instead of showing "idle".
 * Live metrics resume with the next tick; the checkpoint history comes from the host. A run belongs
 * to the document it was started from: same job name and same path (none for an unsaved one).
 */
import type { EngineHost } from '../../../engine/host/common/api.ts';
import { docStore } from '../state.ts';
import { ACTIVE, runStore } from '../stores/runStore.ts';
import { beginRun, liveStore, setRunId, upsertCheckpoint } from '../stores/liveStore.ts';
import { runConfig } from '../stores/runConfig.ts';
import { reattachRun } from '../stores/detachedRuns.ts';

export async function adoptActiveRun(h: EngineHost): Promise<string | null> {
  if (runStore.getState().runId) return null;
  const { job, path } = docStore.getState();
  const runs = await h.listRuns({}).catch(() => []);
  const run = runs
    .filter((r) => r.jobName === job.name && (r.document ?? null) === path && ACTIVE.has(r.status))
    .sort((a, b) => b.startedAt - a.startedAt)[0];
  // The document changed meanwhile: the run is not this one's.
  if (!run || runStore.getState().runId || docStore.getState().job.name !== job.name) return null;
  reattachRun(run.runId);
  runStore.setState({
    runId: run.runId,
    status: run.status,
    restarts: run.restarts,
    startedAt: run.startedAt,
    cause: null,
    job: null,
  });
  // The host reports the backend in effect; other overrides are not known here.
  const jobBackend = job.settings?.stateBackend ?? 'memory';
  const config = runConfig(job, run.stateBackend && run.stateBackend !== jobBackend ? run.stateBackend : null, null);
  // The limit in effect is the run's, not the document's (edited since, or never parsed here).
  if (run.memoryStateLimit !== undefined)
    config.settings = { ...config.settings, memoryStateLimit: run.memoryStateLimit };
  beginRun(config);
  setRunId(run.runId);
  const history = await h.checkpointHistory({ runId: run.runId }).catch(() => []);
  let list = liveStore.getState().checkpoints;
  // Events that arrived meanwhile are newer than the history: keep them over it.
  for (const c of history) if (!list.some((x) => x.id === c.id)) list = upsertCheckpoint(list, c);
  liveStore.setState({ checkpoints: list });
  return run.runId;
}
