/** Run and stop the open document through the host; status arrives as `job.status` events. */
import { docStore } from '../state.ts';
import { host } from '../host.ts';
import { notify, uiStore } from '../ui/uiStore.ts';
import { ACTIVE, runStore } from '../stores/runStore.ts';
import { clearMetrics } from '../stores/metricsStore.ts';
import type { RunOptions } from '../../../engine/host/common/api.ts';
import { beginRun, liveStore, setRunId } from '../stores/liveStore.ts';
import { runConfig } from '../stores/runConfig.ts';
import { offerFolderGrant } from './grantFolder.ts';
import { askNonRestored } from './nonRestoredState.ts';
import { askRerun } from './rerunQuestion.ts';
import { snapshotLive } from './liveSnapshot.ts';

function message(e: unknown): string {
  const m = e && typeof e === 'object' && 'message' in e ? String(e.message) : String(e);
  const problems = (e as { problems?: Array<{ path: string; message: string }> })?.problems;
  return problems?.length
    ? `${m}: ${problems
        .slice(0, 3)
        .map((p) => `${p.path}: ${p.message}`)
        .join('; ')}`
    : m;
}

function notStarted(): void {
  clearMetrics();
  runStore.setState({ status: 'idle', cause: null, runId: null, restarts: 0, startedAt: null, job: null });
}

/**
 * A run that never started leaves nothing of the previous run behind (no stale badges, counts or
 * status) and says why exactly once, as a notice; job problems also open the problem list.
 */
function refused(text: string, problems: boolean): void {
  notStarted();
  if (problems) uiStore.setState({ problemsOpen: true });
  notify(text, 'error');
}

/** Run the open document; `restoreFrom` starts from a checkpoint/savepoint path or 'latest'. */
export async function run(
  opts: Pick<RunOptions, 'restoreFrom' | 'clearOutput' | 'allowNonRestoredState'> = {},
): Promise<void> {
  const { job, path, problems } = docStore.getState();
  // The designer runs the same validator as the host: refuse here, before anything is reset.
  const errors = problems.all.filter((p) => p.severity !== 'warning').length;
  if (errors > 0) {
    refused(`Not run: ${errors} problem${errors === 1 ? '' : 's'} to fix first (listed below)`, true);
    return;
  }
  // The live panel's backend choice (null: the job's own setting) applies to every run.
  const stateBackend = liveStore.getState().backend;
  const restorePrevious = snapshotLive();
  runStore.setState({ status: 'starting', cause: null, runId: null, restarts: 0, job });
  beginRun(runConfig(job, stateBackend, opts.restoreFrom ?? null));
  try {
    const info = await host().run({
      job,
      ...(path ? { path } : {}),
      ...(stateBackend ? { stateBackend } : {}),
      ...(opts.restoreFrom ? { restoreFrom: opts.restoreFrom } : {}),
      ...(opts.clearOutput ? { clearOutput: true } : {}),
      ...(opts.allowNonRestoredState ? { allowNonRestoredState: true } : {}),
    });
    setRunId(info.runId);
    // A status event may already have arrived for this run; only fill in what is missing.
    const s = runStore.getState();
    if (s.runId !== info.runId) {
      runStore.setState({ runId: info.runId, status: info.status, restarts: info.restarts, startedAt: info.startedAt });
    }
  } catch (e) {
    // A fresh run into output an earlier run committed: the user chooses (run/rerunQuestion.ts);
    // meanwhile, and after Cancel, the panel shows the previous run as it was.
    if ((e as { code?: string })?.code === 'output_exists' && !opts.clearOutput) {
      restorePrevious();
      const choice = await askRerun(message(e));
      if (choice === 'clear') await run({ ...opts, clearOutput: true });
      else if (choice === 'resume') await run({ ...opts, restoreFrom: 'latest' });
      return;
    }
    if ((e as { code?: string })?.code === 'non_restored_state' && !opts.allowNonRestoredState) {
      // Asked in the app, as Flink's --allowNonRestoredState: nothing changed until the user says so.
      const nodes = ((e as { problems?: Array<{ nodeId?: string }> }).problems ?? []).flatMap((p) =>
        p.nodeId ? [p.nodeId] : [],
      );
      notStarted(); // nothing runs while the question is open
      if (await askNonRestored({ nodes, message: message(e) })) await run({ ...opts, allowNonRestoredState: true });
      else refused('Not restored: the checkpoint holds state of nodes this job no longer has', false);
      return;
    }
    if ((e as { code?: string })?.code === 'forbidden_path' && (await offerFolderGrant(message(e)))) {
      await run(opts);
      return;
    }
    const invalid = (e as { code?: string })?.code === 'invalid_job';
    refused(`Could not run: ${message(e)}`, invalid);
  }
}

export async function stop(savepoint = false): Promise<void> {
  const { runId } = runStore.getState();
  if (!runId) return;
  try {
    const r = await host().stop({ runId, savepoint });
    if (r.savepoint) notify(`Savepoint written: ${r.savepoint}`);
  } catch (e) {
    notify(`Could not stop: ${message(e)}`, 'error');
  }
}

export async function runOrStop(): Promise<void> {
  if (ACTIVE.has(runStore.getState().status)) await stop();
  else await run();
}
