/**
 * The current run as the host reports it (`job.status` events). The Run button and the status
 * pill read it; the live panel extends it.
 */
import { createStore, useStore } from 'zustand';
import type { HostEvent, JobStatus } from '../../../engine/host/common/api.ts';
import type { JobDocument } from '../../../engine/graph/types.ts';

export interface RunState {
  runId: string | null;
  status: JobStatus | 'idle' | 'starting';
  cause: string | null;
  restarts: number;
  startedAt: number | null;
  /**
   * The document as it was when this run started (what the engine runs), to mark where the
   * canvas has drifted from it. null for a run adopted after a reload (its document is unknown).
   */
  job: JobDocument | null;
}

export const runStore = createStore<RunState>()(() => ({
  runId: null,
  status: 'idle',
  cause: null,
  restarts: 0,
  startedAt: null,
  job: null,
}));

export function useRun<T>(selector: (s: RunState) => T): T {
  return useStore(runStore, selector);
}

export const ACTIVE: ReadonlySet<RunState['status']> = new Set([
  'starting',
  'created',
  'running',
  'restarting',
  'finishing',
]);

export function applyRunEvent(ev: HostEvent): void {
  const s = runStore.getState();
  if (ev.type === 'job.status') {
    // Events of an older run (e.g. one still shutting down) must not overwrite the current one.
    if (s.runId && ev.runId !== s.runId) return;
    runStore.setState({
      runId: ev.runId,
      status: ev.status,
      cause: ev.cause ?? null,
      restarts: ev.restarts,
      startedAt: ev.startedAt,
    });
  } else if (ev.type === 'job.restart' && ev.runId === s.runId) {
    runStore.setState({ restarts: ev.restarts, cause: ev.cause });
  }
}
