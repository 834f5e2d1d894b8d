/** Run and stop the open document through the host; status arrives as `job.status` events. */
import { docStore } from '../state.ts';
import { host } from '../host.ts';
import { notify } from '../ui/uiStore.ts';
import { ACTIVE, runStore } from './runStore.ts';

function message(e: unknown): string {
  const m = e && typeof e === 'object' && 'message' in e ? String((e as { message: unknown }).message) : String(e);
  const problems = (e as { problems?: Array<{ path: string; message: string }> })?.problems;
  return problems?.length ? `${m}: ${problems.slice(0, 3).map((p) => `${p.path}: ${p.message}`).join('; ')}` : m;
}

export async function run(): Promise<void> {
  const { job, path } = docStore.getState();
  runStore.setState({ status: 'starting', cause: null, runId: null, restarts: 0 });
  try {
    const info = await host().run({ job, ...(path ? { path } : {}) });
    // A status event may already have arrived for this run; only fill in what is missing.
    const s = runStore.getState();
    if (s.runId !== info.runId) {
      runStore.setState({ runId: info.runId, status: info.status, restarts: info.restarts, startedAt: info.startedAt });
    }
  } catch (e) {
    runStore.setState({ status: 'failed', cause: message(e) });
    notify(`Could not run: ${message(e)}`, 'error');
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
