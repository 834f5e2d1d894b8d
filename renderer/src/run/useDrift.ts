/** Selector hooks over the running job and the canvas: drift per node, and the whole drift. */
import { useStore } from 'zustand';
import { docStore } from '../state.ts';
import { jobDrift, NO_DRIFT, type Drift, type NodeDrift } from '../model/drift.ts';
import { ACTIVE, runStore, useRun } from '../stores/runStore.ts';

function currentDrift(): Drift {
  const r = runStore.getState();
  if (!r.job || !ACTIVE.has(r.status)) return NO_DRIFT;
  return jobDrift(r.job, docStore.getState().job);
}

/** The whole drift (banner); re-renders when the run or the document changes. */
export function useDrift(): Drift {
  useRun((s) => (s.job && ACTIVE.has(s.status) ? s.job : null));
  useStore(docStore, (s) => s.job);
  return currentDrift();
}

/** One node's drift: a canvas node re-renders only when its own mark changes. */
export function useNodeDrift(id: string): NodeDrift | null {
  useRun((s) => (s.job && ACTIVE.has(s.status) ? s.job : null));
  return useStore(docStore, () => currentDrift().nodes.get(id) ?? null);
}
