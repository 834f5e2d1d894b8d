/** Run controls beyond Run/Stop: savepoints, fault injection, resume and restore. */
import type { RetainedCheckpoint } from '../../../engine/contracts/checkpoint.ts';
import { host } from '../host.ts';
import { docStore } from '../state.ts';
import { notify } from '../ui/uiStore.ts';
import { runStore } from '../stores/runStore.ts';
import { run, stop } from '../run/runActions.ts';

function message(e: unknown): string {
  return e && typeof e === 'object' && 'message' in e ? String(e.message) : String(e);
}

export function stopWithSavepoint(): Promise<void> {
  return stop(true);
}

export async function savepointNow(): Promise<void> {
  const { runId } = runStore.getState();
  if (!runId) return;
  try {
    const r = await host().triggerSavepoint({ runId });
    notify(`Savepoint ${r.id} written: ${r.path}`);
  } catch (e) {
    notify(`Could not take a savepoint: ${message(e)}`, 'error');
  }
}

/** Fault injection: the host SIGKILLs the task process; recovery shows as a restart. */
export async function killTaskProcess(): Promise<void> {
  const { runId } = runStore.getState();
  if (!runId) return;
  try {
    await host().killTaskProcess({ runId });
    notify('Task process killed: watch the job restart from its latest checkpoint');
  } catch (e) {
    notify(`Could not kill the task process: ${message(e)}`, 'error');
  }
}

export function resumeLatest(): Promise<void> {
  return run({ restoreFrom: 'latest' });
}

export function restoreFrom(path: string): Promise<void> {
  return run({ restoreFrom: path });
}

/** Retained checkpoints and savepoints of the open job, newest first. */
export async function listRetained(): Promise<RetainedCheckpoint[]> {
  const { job, path } = docStore.getState();
  const list = await host().listCheckpoints({ job, ...(path ? { path } : {}) });
  return [...list].sort((a, b) => b.time - a.time || b.id - a.id);
}
