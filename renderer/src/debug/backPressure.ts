/**
 * Back-pressure on the canvas's edges (levels in stores/backPressureLevels.ts): an operator's
 * outgoing edges carry its level; the receiver that cannot keep up is the node at their end that
 * is not back-pressured itself (the bottleneck badge). The colours and the hooks.
 */
import { useStore } from 'zustand';
import { metricsStore } from '../stores/metricsStore.ts';
import { backPressured, backPressureLevel, type BackPressureLevel } from '../stores/backPressureLevels.ts';

export const BP_COLORS: Record<Exclude<BackPressureLevel, 'ok'>, string> = { low: 'var(--warn)', high: 'var(--err)' };

/** The sender's back-pressured share in whole percents (5-point steps), null while no run reports it. */
export function useBackPressuredPercent(nodeId: string): number | null {
  return useStore(metricsStore, (s) => {
    if (s.runId === null) return null;
    const bp = backPressured(s.byNode.get(nodeId));
    return bp === null ? null : Math.round(bp * 20) * 5;
  });
}

/** Whether any operator of the running job reports back-pressure of at least LOW. */
export function useAnyBackPressure(): boolean {
  return useStore(metricsStore, (s) => {
    if (s.runId === null) return false;
    for (const subs of s.byNode.values()) if (backPressureLevel(backPressured(subs)) !== 'ok') return true;
    return false;
  });
}
