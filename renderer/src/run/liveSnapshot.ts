/**
 * What the live panel shows, saved before a run resets it, so a run that never starts (the
 * re-run question cancelled) puts the previous run's data back instead of leaving an empty panel.
 */
import { runStore } from '../stores/runStore.ts';
import { liveStore } from '../stores/liveStore.ts';
import { metricsStore } from '../stores/metricsStore.ts';
import { historyStore } from '../stores/historyStore.ts';
import { logStore } from '../stores/logStore.ts';

export function snapshotLive(): () => void {
  const run = runStore.getState();
  const live = liveStore.getState();
  const metrics = metricsStore.getState();
  const history = historyStore.getState();
  const log = logStore.getState();
  return () => {
    runStore.setState(run, true);
    // The drawer's layout is the user's, not the run's: keep what it is now.
    const now = liveStore.getState();
    liveStore.setState({ ...live, open: now.open, tab: now.tab, height: now.height, backend: now.backend }, true);
    metricsStore.setState(metrics, true);
    historyStore.setState(history, true);
    logStore.setState(log, true);
  };
}
