/**
 * A small history of each operator's figures over the run, for the Metrics tab's charts:
 * throughput, watermark lag and back-pressure, one point per second at most.
 *
 * Rules:
 * - Fed by `metrics` host events only, apart from the document and from metricsStore (which holds
 *   only the latest tick); a new run id starts a new history.
 * - At most HISTORY_POINTS points: the oldest half is thinned to every other point when full, so a
 *   long run keeps its whole shape at a coarser grain rather than only its last minutes.
 * - Arrays are replaced, never mutated, so chart components can compare by identity.
 */
import { createStore, useStore } from 'zustand';
import type { HostEvent, OperatorMetrics } from '../../../engine/host/common/api.ts';
import { buildIndex } from './nodeLive.ts';

export const HISTORY_POINTS = 600;
const MIN_STEP_MS = 1000;

export interface NodeSeries {
  rateIn: number[];
  rateOut: number[];
  lag: Array<number | null>;
  backPressure: number[];
}

export interface HistoryState {
  runId: string | null;
  /** Seconds since the epoch (uPlot's x scale), one per point. */
  time: number[];
  byNode: ReadonlyMap<string, NodeSeries>;
}

export const historyStore = createStore<HistoryState>()(() => ({ runId: null, time: [], byNode: new Map() }));

export function useHistory<T>(selector: (s: HistoryState) => T): T {
  return useStore(historyStore, selector);
}

/** Every other element of the older half, the newer half kept whole. */
function thin<T>(a: readonly T[]): T[] {
  const half = Math.floor(a.length / 2);
  return [...a.slice(0, half).filter((_, i) => i % 2 === 0), ...a.slice(half)];
}

export function applyHistoryEvent(ev: HostEvent): void {
  if (ev.type !== 'metrics') return;
  let s = historyStore.getState();
  if (s.runId !== ev.runId) s = { runId: ev.runId, time: [], byNode: new Map() };
  const t = ev.time / 1000;
  const last = s.time[s.time.length - 1];
  if (last !== undefined && (t - last) * 1000 < MIN_STEP_MS) {
    if (s !== historyStore.getState()) historyStore.setState(s);
    return;
  }
  const grouped = new Map<string, OperatorMetrics[]>();
  for (const m of ev.operators) {
    const l = grouped.get(m.nodeId);
    if (l) l.push(m);
    else grouped.set(m.nodeId, [m]);
  }
  const idx = buildIndex(grouped);
  const full = s.time.length >= HISTORY_POINTS;
  const grow = <T>(a: readonly T[], v: T): T[] => [...(full ? thin(a) : a), v];
  const n = s.time.length;
  const byNode = new Map<string, NodeSeries>();
  // Nodes first seen mid-run (none today, but a restart could re-plan) are padded to the time axis.
  const ids = new Set([...s.byNode.keys(), ...idx.nodes.keys()]);
  for (const id of ids) {
    const prev = s.byNode.get(id) ?? {
      rateIn: Array(n).fill(0),
      rateOut: Array(n).fill(0),
      lag: Array(n).fill(null),
      backPressure: Array(n).fill(0),
    };
    const live = idx.nodes.get(id);
    byNode.set(id, {
      rateIn: grow(prev.rateIn, live?.rateIn ?? 0),
      rateOut: grow(prev.rateOut, live?.rateOut ?? 0),
      lag: grow(prev.lag, live?.lag ?? null),
      backPressure: grow(prev.backPressure, live?.backPressure ?? 0),
    });
  }
  historyStore.setState({ runId: ev.runId, time: grow(s.time, t), byNode });
}

export function clearHistory(): void {
  historyStore.setState({ runId: null, time: [], byNode: new Map() });
}
