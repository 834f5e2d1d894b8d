/**
 * Per-node and per-edge live figures derived from one metrics tick. Computed once per tick
 * (memoized on the tick's `byNode` map) so that each canvas node and edge can select its own
 * primitive values: a tick re-renders only the badges whose numbers changed, never the graph.
 */
import type { OperatorMetrics } from '../../../engine/host/common/api.ts';
import type { MetricsState } from './metricsStore.ts';
import type { OutputPort } from '../model/catalog.ts';
import { BP_HIGH, backPressured } from './backPressureLevels.ts';

/** An output channel at least this full counts as back-pressured (the runtime reports 0..1). */
export const BACKPRESSURE_FULL = 0.99;

export interface NodeLive {
  /** The operator's watermark: the smallest over its subtasks (null until every subtask has one). */
  watermark: number | null;
  /** Newest event time seen by any source minus this watermark (ms), null when unknown. */
  lag: number | null;
  idleInputs: number;
  inputs: number;
  /**
   * Idle subtasks: for sources their own `idle` flag (nothing to read for the idle timeout); for
   * other operators, subtasks whose output a downstream channel reports idle (all inputs idle).
   */
  idleOutputs: number;
  rateIn: number;
  rateOut: number;
  recordsIn: number;
  recordsOut: number;
  lateRecords: number;
  /** Records that did not parse (a file source's `onBadRecord` skip or dead-letter). */
  badRecords: number;
  stateBytes: number;
  stateDiskBytes: number;
  backPressure: number;
  /** Time in its own code per second, of its busiest subtask (0..1); null before the second report. */
  busy: number | null;
  /** The operator that slows the job: see bottleneckOf. */
  bottleneck: boolean;
  pendingRecords: number | null;
  pendingFiles: number | null;
  subtasks: number;
}

/** With no back-pressure anywhere, an operator busy this share of every second, and the busiest, is the bottleneck. */
export const BUSY_BOTTLENECK = 0.5;

export interface LiveIndex {
  nodes: ReadonlyMap<string, NodeLive>;
  newestEventTime: number | null;
}

export function nodeLive(subtasks: readonly OperatorMetrics[], newestEventTime: number | null): NodeLive {
  let watermark: number | null = Infinity;
  let idleInputs = 0;
  let inputs = 0;
  let rateIn = 0;
  let rateOut = 0;
  let recordsIn = 0;
  let recordsOut = 0;
  let late = 0;
  let bad = 0;
  let stateBytes = 0;
  let disk = 0;
  let bp = 0;
  let busy: number | null = null;
  let pendingRecords: number | null = null;
  let pendingFiles: number | null = null;
  for (const m of subtasks) {
    if (m.watermark === null) watermark = null;
    else if (watermark !== null) watermark = Math.min(watermark, m.watermark);
    for (const c of m.inputWatermarks) {
      inputs++;
      if (c.idle) idleInputs++;
    }
    rateIn += m.rateIn;
    rateOut += m.rateOut;
    recordsIn += m.recordsIn;
    recordsOut += m.recordsOut;
    late += m.lateRecords;
    bad += m.badRecords;
    stateBytes += m.stateBytes;
    disk += m.stateDiskBytes;
    bp = Math.max(bp, m.backPressure);
    if (m.busyMsPerSecond !== undefined) busy = Math.max(busy ?? 0, m.busyMsPerSecond / 1000);
    if (m.pendingRecords !== undefined) pendingRecords = (pendingRecords ?? 0) + m.pendingRecords;
    if (m.pendingFiles !== undefined) pendingFiles = (pendingFiles ?? 0) + m.pendingFiles;
  }
  if (watermark === Infinity || !subtasks.length) watermark = null;
  const lag =
    watermark !== null && newestEventTime !== null && Math.abs(watermark) < 8.64e15
      ? Math.max(0, newestEventTime - watermark)
      : null;
  return {
    watermark,
    lag,
    idleInputs,
    inputs,
    idleOutputs: 0,
    rateIn,
    rateOut,
    recordsIn,
    recordsOut,
    lateRecords: late,
    badRecords: bad,
    stateBytes,
    stateDiskBytes: disk,
    backPressure: bp,
    busy,
    bottleneck: false,
    pendingRecords,
    pendingFiles,
    subtasks: subtasks.length,
  };
}

export function buildIndex(byNode: ReadonlyMap<string, readonly OperatorMetrics[]>): LiveIndex {
  let newest: number | null = null;
  for (const subs of byNode.values()) {
    for (const m of subs)
      if (m.maxEventTime !== null && (newest === null || m.maxEventTime > newest)) newest = m.maxEventTime;
  }
  const nodes = new Map<string, NodeLive>();
  const idleSenders = new Map<string, Set<string>>();
  for (const subs of byNode.values()) {
    for (const m of subs) {
      for (const c of m.inputWatermarks) {
        if (!c.idle) continue;
        const sender = senderOf(c.channel);
        let set = idleSenders.get(sender);
        if (!set) idleSenders.set(sender, (set = new Set()));
        // `node#subtask` names the sending subtask; a one-to-one edge's sender is our own subtask.
        set.add(sender.length < c.channel.length ? c.channel.slice(sender.length + 1) : String(m.subtask));
      }
    }
  }
  for (const [id, subs] of byNode) {
    const n = nodeLive(subs, newest);
    // Sources say so themselves; a downstream channel would also call a finished source idle.
    const flagged = subs.some((m) => m.idle !== undefined);
    n.idleOutputs = flagged ? subs.filter((m) => m.idle === true).length : (idleSenders.get(id)?.size ?? 0);
    nodes.set(id, n);
  }
  const bottleneck = bottleneckOf(byNode, nodes);
  if (bottleneck) bottleneck.bottleneck = true;
  return { nodes, newestEventTime: newest };
}

/**
 * Flink's rule for finding the bottleneck: follow the back-pressure downstream; the first operator
 * whose sender is back-pressured (HIGH) but which is not back-pressured itself cannot keep up. The
 * busiest such operator if several. Busy time alone would mislead on a loaded machine: a receiver
 * waiting for the CPU, or decoding its input, is slow without being in its own code half the
 * second. Without back-pressure, the busiest operator busy over BUSY_BOTTLENECK is the one.
 */
function bottleneckOf(
  byNode: ReadonlyMap<string, readonly OperatorMetrics[]>,
  nodes: ReadonlyMap<string, NodeLive>,
): NodeLive | null {
  const pressed = (id: string) => (backPressured(byNode.get(id)) ?? 0) >= BP_HIGH;
  let found: NodeLive | null = null;
  for (const [id, subs] of byNode) {
    if (pressed(id)) continue;
    const fedByPressed = subs.some((m) => m.inputWatermarks.some((c) => pressed(senderOf(c.channel))));
    const n = nodes.get(id)!;
    if (fedByPressed && (found === null || (n.busy ?? 0) > (found.busy ?? 0))) found = n;
  }
  if (found) return found;
  for (const n of nodes.values()) if (n.busy !== null && n.busy > (found?.busy ?? 0)) found = n;
  return found && found.busy! >= BUSY_BOTTLENECK ? found : null;
}

/** Channels are named by their sender: `node#subtask`, or `node` alone for a one-to-one edge. */
function senderOf(channel: string): string {
  const hash = channel.lastIndexOf('#');
  return hash > 0 ? channel.slice(0, hash) : channel;
}

const cache = new WeakMap<object, LiveIndex>();

/** The tick's index, built at most once per tick whatever the number of subscribers. */
export function liveIndex(s: MetricsState): LiveIndex {
  let idx = cache.get(s.byNode);
  if (!idx) {
    idx = buildIndex(s.byNode);
    cache.set(s.byNode, idx);
  }
  return idx;
}

export interface EdgeLive {
  rate: number;
  backPressure: number;
  /** Records sent on a side port so far: late records on `late`, dead letters on `bad`; 0 on `out`. */
  late: number;
}

/**
 * What flows on an edge: the sender's output rate (every downstream receives all of it); a side
 * port shows its count instead, since side records are too rare for a rate to say anything.
 */
export function edgeLive(idx: LiveIndex, from: string, port: OutputPort): EdgeLive | null {
  const n = idx.nodes.get(from);
  if (!n) return null;
  if (port === 'late') return { rate: 0, backPressure: 0, late: n.lateRecords };
  if (port === 'bad') return { rate: 0, backPressure: 0, late: n.badRecords };
  return { rate: n.rateOut, backPressure: n.backPressure, late: 0 };
}

/** Stroke width for an edge carrying `rate` records/s: 1.5 px idle, log-scaled, at most 7 px. */
export function edgeWidth(rate: number): number {
  if (!(rate > 0)) return 1.5;
  return Math.min(7, 1.5 + Math.log10(1 + rate) * 1.2);
}
