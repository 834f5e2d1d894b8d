/**
 * Back-pressure as Flink's web UI measures it: at the SENDING task, the share of each second its
 * subtask spent blocked on a full output (`backPressuredMsPerSecond`), its busiest subtask's.
 * Flink's levels: OK below 10%, LOW to 50%, HIGH above. Plain functions over one tick's metrics,
 * shared by the edges' colours and the bottleneck rule (stores/nodeLive.ts).
 */
import type { OperatorMetrics } from '../../../engine/host/common/api.ts';

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
