/**
 * Sizes React Flow measured for each node. React Flow needs them back on controlled nodes; they
 * are view state, not document state, so they live here and never in the job.
 */
import { createStore, useStore } from 'zustand';

type Size = { width: number; height: number };

export const measuredStore = createStore<{ sizes: ReadonlyMap<string, Size> }>()(() => ({ sizes: new Map() }));

export function useMeasured(): ReadonlyMap<string, Size> {
  return useStore(measuredStore, (s) => s.sizes);
}

export function setMeasured(updates: Array<{ id: string; size: Size }>): void {
  if (updates.length === 0) return;
  const next = new Map(measuredStore.getState().sizes);
  let changed = false;
  for (const { id, size } of updates) {
    const old = next.get(id);
    if (old && old.width === size.width && old.height === size.height) continue;
    next.set(id, size);
    changed = true;
  }
  if (changed) measuredStore.setState({ sizes: next });
}

/** Forget sizes of nodes that are gone (another document was loaded). */
export function pruneMeasured(keep: ReadonlySet<string>): void {
  const sizes = measuredStore.getState().sizes;
  if ([...sizes.keys()].every((id) => keep.has(id))) return;
  measuredStore.setState({ sizes: new Map([...sizes].filter(([id]) => keep.has(id))) });
}
