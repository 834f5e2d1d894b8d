/**
 * Event-time timers of the window operator. Every timer is an entry of keyed state (so it survives
 * a snapshot and a rescale together with its window); the index that finds the due ones at a
 * watermark is on the heap and rebuilt from state in `open` (after a restore too). Two indexes,
 * chosen by the backend, give the same timers in the same order:
 *
 * - ScanningTimerIndex (RocksDB, an ordered store): one number per owned key group, the earliest
 *   pending timer. A watermark scans only the groups with a timer due, each with one ordered scan
 *   over `gggg:T<time>...` that stops at the first timer after the watermark. Heap use is O(groups).
 * - HeapTimerQueue (heap backends, whose working state is on the heap anyway and whose `scan`
 *   sorts): every timer key in a map by firing time, plus a min-heap of the distinct times.
 *
 * Invariant (both): every timer stored in state is known to the index with its exact time, or the
 * index's bound for its key group is at most that time.
 */
import type { KeyGroupRange, StateTable } from '../../../state/api.ts';
import {
  GROUP_PREFIX_WIDTH, clampTime, decodeTime, parseTimerKey, timerKey, timerRange, type ParsedTimer,
} from './state-keys.ts';

export type StateWrite = [string, unknown];

export interface TimerIndex {
  rebuild(): Promise<void>;
  register(writes: StateWrite[], keyGroup: number, time: number, end: number, key: string): void;
  /** Deletes the timer given by its state key. */
  delete(writes: StateWrite[], timerStateKey: string): void;
  /**
   * Every stored timer with time <= watermark. They are forgotten by the index: the caller deletes
   * each one from state (and may register a later one for the same window).
   */
  due(watermark: number): Promise<ParsedTimer[]>;
}

export function timerIndexFor(kind: string, table: StateTable<unknown>, range: KeyGroupRange): TimerIndex {
  return kind === 'rocksdb' ? new ScanningTimerIndex(table, range) : new HeapTimerQueue(table);
}

export class ScanningTimerIndex implements TimerIndex {
  private readonly earliest: Float64Array;

  constructor(private readonly table: StateTable<unknown>, private readonly range: KeyGroupRange) {
    this.earliest = new Float64Array(range.end - range.start + 1).fill(Infinity);
  }

  async rebuild(): Promise<void> {
    for (let g = this.range.start; g <= this.range.end; g++) {
      let first = Infinity;
      for await (const [k] of this.table.scan(timerRange(g))) {
        first = parseTimerKey(k).time;
        break;
      }
      this.earliest[g - this.range.start] = first;
    }
  }

  register(writes: StateWrite[], keyGroup: number, time: number, end: number, key: string): void {
    writes.push([timerKey(keyGroup, time, end, key), 1]);
    const i = keyGroup - this.range.start;
    if (time < this.earliest[i]) this.earliest[i] = time;
  }

  delete(writes: StateWrite[], timerStateKey: string): void {
    writes.push([timerStateKey, undefined]);
  }

  async due(watermark: number): Promise<ParsedTimer[]> {
    const limit = clampTime(watermark);
    const out: ParsedTimer[] = [];
    for (let g = this.range.start; g <= this.range.end; g++) {
      const i = g - this.range.start;
      if (this.earliest[i] > limit) continue;
      let next = Infinity;
      for await (const [k] of this.table.scan(timerRange(g))) {
        const t = parseTimerKey(k);
        if (t.time > limit) { next = t.time; break; }
        out.push(t);
      }
      this.earliest[i] = next;
    }
    return out;
  }
}

export class HeapTimerQueue implements TimerIndex {
  private readonly byTime = new Map<number, Set<string>>();
  /** Binary min-heap of the distinct times in `byTime` (a time may linger after its set emptied). */
  private readonly heap: number[] = [];

  constructor(private readonly table: StateTable<unknown>) {}

  async rebuild(): Promise<void> {
    this.byTime.clear();
    this.heap.length = 0;
    for await (const [k] of this.table.scan()) {
      if (k.charCodeAt(GROUP_PREFIX_WIDTH) === 0x54 /* 'T' */) this.add(k, decodeTime(k, GROUP_PREFIX_WIDTH + 1));
    }
  }

  register(writes: StateWrite[], keyGroup: number, time: number, end: number, key: string): void {
    const k = timerKey(keyGroup, time, end, key);
    writes.push([k, 1]);
    this.add(k, time);
  }

  delete(writes: StateWrite[], timerStateKey: string): void {
    writes.push([timerStateKey, undefined]);
    this.byTime.get(decodeTime(timerStateKey, GROUP_PREFIX_WIDTH + 1))?.delete(timerStateKey);
  }

  async due(watermark: number): Promise<ParsedTimer[]> {
    const limit = clampTime(watermark);
    const out: ParsedTimer[] = [];
    const heap = this.heap;
    while (heap.length > 0 && heap[0] <= limit) {
      const t = this.pop();
      const keys = this.byTime.get(t);
      this.byTime.delete(t);
      if (keys) for (const k of keys) out.push(parseTimerKey(k));
    }
    return out;
  }

  private add(k: string, time: number): void {
    let set = this.byTime.get(time);
    if (set === undefined) {
      set = new Set();
      this.byTime.set(time, set);
      this.push(time);
    }
    set.add(k);
  }

  private push(t: number): void {
    const h = this.heap;
    let i = h.push(t) - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (h[p] <= t) break;
      h[i] = h[p];
      i = p;
    }
    h[i] = t;
  }

  private pop(): number {
    const h = this.heap;
    const top = h[0];
    const last = h.pop()!;
    if (h.length > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= h.length) break;
        const c = l + 1 < h.length && h[l + 1] < h[l] ? l + 1 : l;
        if (h[c] >= last) break;
        h[i] = h[c];
        i = c;
      }
      h[i] = last;
    }
    return top;
  }
}

/** Timers fire in window-end order, then key order: a deterministic output order on any backend. */
export function compareTimers(a: ParsedTimer, b: ParsedTimer): number {
  return a.end - b.end || (a.key < b.key ? -1 : a.key > b.key ? 1 : a.time - b.time);
}
