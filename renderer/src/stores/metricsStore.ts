/**
 * Live operator metrics, apart from the document: they arrive many times a second and must never
 * enter node `data` (which is saved) nor trigger layout. Throttled to one store update per
 * animation frame; canvas badges subscribe per node with a selector (the live panel builds on this).
 */
import { createStore, useStore } from 'zustand';
import type { HostEvent, OperatorMetrics } from '../../../engine/host/common/api.ts';

export interface MetricsState {
  runId: string | null;
  time: number;
  /** Per node id: the subtasks' metrics of the latest tick. */
  byNode: ReadonlyMap<string, OperatorMetrics[]>;
}

export const metricsStore = createStore<MetricsState>()(() => ({ runId: null, time: 0, byNode: new Map() }));

export function useMetrics<T>(selector: (s: MetricsState) => T): T {
  return useStore(metricsStore, selector);
}

let pending: Extract<HostEvent, { type: 'metrics' }> | null = null;
let scheduled = false;

export function applyMetricsEvent(ev: HostEvent): void {
  if (ev.type !== 'metrics') return;
  pending = ev;
  if (scheduled) return;
  scheduled = true;
  const flush = () => {
    scheduled = false;
    const p = pending;
    pending = null;
    if (!p) return;
    const byNode = new Map<string, OperatorMetrics[]>();
    for (const m of p.operators) {
      const l = byNode.get(m.nodeId);
      if (l) l.push(m);
      else byNode.set(m.nodeId, [m]);
    }
    metricsStore.setState({ runId: p.runId, time: p.time, byNode });
  };
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(flush);
  else setTimeout(flush, 16);
}

/** Forget every node's numbers (a run that was refused must not leave the previous run's badges). */
export function clearMetrics(): void {
  pending = null;
  metricsStore.setState({ runId: null, time: 0, byNode: new Map() });
}
