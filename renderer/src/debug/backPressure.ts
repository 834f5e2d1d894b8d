/**
 * Back-pressure on the canvas's edges, as Flink's web UI measures it: at the SENDING task, the
 * share of each second its subtask spent blocked on a full output (`backPressuredMsPerSecond`),
 * its busiest subtask's. Flink's levels: OK below 10%, LOW to 50%, HIGH above. An operator's
 * outgoing edges carry its level; the receiver that cannot keep up is usually the busy node at
 * their end (the bottleneck badge). Plain TypeScript over the metrics store, plus the hooks.
 */
import { useStore } from 'zustand';
import type { OperatorMetrics } from '../../../engine/host/common/api.ts';
import { metricsStore } from '../stores/metricsStore.ts';

export const BP_LOW = 0.1;
export const BP_HIGH = 0.5;

export type BackPressureLevel = 'ok' | 'low' | 'high';

/** The busiest subtask's back-pressured share (0..1); null before the second metrics report. */
export function backPressured(subtasks: readonly OperatorMetrics[] | undefined): number | null {
  let bp: number | null = null;
  for (const m of subtasks ?? [])
    if (m.backPressuredMsPerSecond !== undefined) bp = Math.max(bp ?? 0, m.backPressuredMsPerSecond / 1000);
  return bp;
}

export function backPressureLevel(share: number | null): BackPressureLevel {
  return share === null || share < BP_LOW ? 'ok' : share < BP_HIGH ? 'low' : 'high';
}

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
