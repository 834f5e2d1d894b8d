/**
 * The live panel shows the open document's run, never another's: when a document is loaded (New,
 * Open, an example, a drop, a recovered draft), the run the panel showed is detached (it keeps
 * running, attached to its own document) and every live store starts clean; then the new document's
 * own active run, if any, is adopted (reopening a running job's document shows it again).
 */
import type { EngineHost } from '../../../engine/host/common/api.ts';
import { docStore } from '../state.ts';
import { runStore } from '../stores/runStore.ts';
import { clearMetrics } from '../stores/metricsStore.ts';
import { clearHistory } from '../stores/historyStore.ts';
import { resetLog } from '../stores/logStore.ts';
import { resetLive } from '../stores/liveStore.ts';
import { detachRun } from '../stores/detachedRuns.ts';
import { adoptActiveRun } from './recoverRun.ts';

/** Forget the shown run in every live store; the run itself is not touched. */
export function detachLiveView(): void {
  const { runId } = runStore.getState();
  if (runId) detachRun(runId);
  runStore.setState({ runId: null, status: 'idle', cause: null, restarts: 0, startedAt: null, job: null });
  clearMetrics();
  clearHistory();
  resetLog();
  resetLive();
}

/** Adopts the open document's run now and after every load; returns the unsubscriber. */
export function followDocument(h: EngineHost): () => void {
  let version = docStore.getState().docVersion;
  void adoptActiveRun(h);
  return docStore.subscribe((s) => {
    if (s.docVersion === version) return;
    version = s.docVersion;
    detachLiveView();
    void adoptActiveRun(h);
  });
}
