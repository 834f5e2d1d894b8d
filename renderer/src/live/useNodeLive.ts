/** Selector hooks for one node's or edge's live figures: re-render only when those values change. */
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { metricsStore } from '../stores/metricsStore.ts';
import { edgeLive, liveIndex, type EdgeLive, type NodeLive } from '../stores/nodeLive.ts';
import { compact, rate } from './format.ts';
import type { OutputPort } from '../model/catalog.ts';

/** The fields a canvas badge shows, rounded so a tick that changes nothing visible does not render. */
export interface NodeBadge {
  watermark: number | null;
  lag: number | null;
  idleInputs: number;
  idleOutputs: number;
  late: number;
  pending: number | null;
  active: boolean;
  /** Records in / out so far and the busier of the two rates, already formatted (a tick that changes no digit does not render). */
  recordsIn: string;
  recordsOut: string;
  rate: string;
  /** Keyed state of the operator (all subtasks), rounded to 1 KB so small changes do not repaint. */
  stateBytes: number;
  /** Busy share of its busiest subtask in whole percents (5-point steps), null before it is known. */
  busy: number | null;
  bottleneck: boolean;
}

export function useNodeBadge(nodeId: string): NodeBadge {
  return useStore(
    metricsStore,
    useShallow((s) => {
      const n: NodeLive | undefined = liveIndex(s).nodes.get(nodeId);
      return {
        active: s.runId !== null && !!n,
        watermark: n?.watermark ?? null,
        lag: n?.lag == null ? null : Math.round(n.lag / 100) * 100,
        idleInputs: n?.idleInputs ?? 0,
        idleOutputs: n?.idleOutputs ?? 0,
        late: n?.lateRecords ?? 0,
        pending: n?.pendingRecords ?? null,
        recordsIn: compact(n?.recordsIn ?? 0),
        recordsOut: compact(n?.recordsOut ?? 0),
        rate: rate(Math.max(n?.rateIn ?? 0, n?.rateOut ?? 0)),
        stateBytes: Math.round((n?.stateBytes ?? 0) / 1024) * 1024,
        busy: n?.busy == null ? null : Math.round(n.busy * 20) * 5,
        bottleneck: n?.bottleneck ?? false,
      };
    }),
  );
}

export function useEdgeLive(from: string, port: OutputPort): EdgeLive | null {
  return useStore(
    metricsStore,
    useShallow((s) => {
      if (s.runId === null) return null;
      const e = edgeLive(liveIndex(s), from, port);
      // Rounded: a rate changing in its third digit is not worth a repaint.
      return e
        ? { rate: Math.round(e.rate), backPressure: Math.round(e.backPressure * 100) / 100, late: e.late }
        : null;
    }),
  );
}
