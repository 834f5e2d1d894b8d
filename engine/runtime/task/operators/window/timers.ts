/**
 * Event-time timers of the window operator. Every timer is in keyed state, so it survives a
 * snapshot and a rescale together with its window:
 * - tumbling/sliding (`window-entries`): a window has exactly one pending timer, kept as the `t`
 *   field of the window's own entry (firing time end - 1, then cleanup time end - 1 + lateness);
 * - sessions (`timer-entries`): one `gggg:T<time>:<end>:<key>` entry per session.
 *
 * The index that finds the due timers at a watermark is on the heap and rebuilt from state in
 * `open` (after a restore too). Two indexes, chosen by the backend, give the same timers:
 * - ScanningTimerIndex (RocksDB, an ordered store): one number per owned key group, a lower bound
 *   of its pending timers. A watermark scans only the groups whose bound is due, each with one
 *   ordered scan that stops at the first entry after the watermark. Heap use is O(key groups).
 * - HeapTimerQueue (heap backends, whose state is on the heap anyway and whose `scan` sorts):
 *   every pending timer in a map by firing time, plus a min-heap of the distinct times.
 */
import type { KeyGroupRange, StateTable } from '../../../../contracts/keyed-state.ts';
import {
  GROUP_PREFIX_WIDTH,
  clampTime,
  decodeTime,
  keyGroupOfKey,
  kindRange,
  parseAlignedWindowKey,
  parseTimerKey,
} from './state-keys.ts';

export type StateWrite = [string, unknown];

/**
 * One pending timer. `id` is the state key it lives in: the window entry (`window-entries`) or
 * its own timer entry (`timer-entries`); unique per pending timer.
 */
export interface Timer {
  id: string;
  keyGroup: number;
  time: number;
  end: number;
  key: string;
}

export type TimerLayout = 'window-entries' | 'timer-entries';

export interface TimerIndex {
  rebuild(): Promise<void>;
  /** A new pending timer; with `timer-entries` this also writes its entry. */
  register(writes: StateWrite[], timer: Timer): void;
  /** A pending timer that is no longer wanted; with `timer-entries` this deletes its entry. */
  delete(writes: StateWrite[], timer: Timer): void;
  /**
   * Every pending timer with time <= watermark. The index forgets them: the caller handles each
   * (deleting its entry, or registering the window's next timer).
   */
  due(watermark: number): Promise<Timer[]>;
}

export function timerIndexFor(
  backendKind: string,
  table: StateTable<unknown>,
  range: KeyGroupRange,
  layout: TimerLayout,
): TimerIndex {
  return backendKind === 'rocksdb' ? new ScanningTimerIndex(table, range, layout) : new HeapTimerQueue(table, layout);
}

interface TimedValue {
  t: number;
}

/** Reads the timer stored at one state entry of the given layout. */
function timerOfEntry(layout: TimerLayout, k: string, v: unknown): Timer {
  if (layout === 'timer-entries') return { id: k, ...parseTimerKey(k) };
  const w = parseAlignedWindowKey(k);
  return { id: k, keyGroup: w.keyGroup, time: (v as TimedValue).t, end: w.end, key: w.key };
}

export class ScanningTimerIndex implements TimerIndex {
  private readonly bound: Float64Array;
  private readonly kind: 'W' | 'T';

  constructor(
    private readonly table: StateTable<unknown>,
    private readonly range: KeyGroupRange,
    private readonly layout: TimerLayout,
  ) {
    this.bound = new Float64Array(range.end - range.start + 1).fill(Infinity);
    this.kind = layout === 'timer-entries' ? 'T' : 'W';
  }

  async rebuild(): Promise<void> {
    for (let g = this.range.start; g <= this.range.end; g++) {
      let first = Infinity;
      for await (const [k, v] of this.table.scan(kindRange(g, this.kind))) {
        const t = timerOfEntry(this.layout, k, v);
        if (t.time < first) first = t.time;
        // Timer entries are in time order. Windows are in end order: fired windows (timer at
        // cleanup time) all end before the first unfired one, whose timer (end - 1) is the
        // smallest of every window after it.
        if (this.layout === 'timer-entries' || t.time === t.end - 1) break;
      }
      this.bound[g - this.range.start] = first;
    }
  }

  register(writes: StateWrite[], timer: Timer): void {
    if (this.layout === 'timer-entries') writes.push([timer.id, 1]);
    const i = timer.keyGroup - this.range.start;
    if (timer.time < this.bound[i]) this.bound[i] = timer.time;
  }

  delete(writes: StateWrite[], timer: Timer): void {
    if (this.layout === 'timer-entries') writes.push([timer.id, undefined]);
  }

  async due(watermark: number): Promise<Timer[]> {
    const limit = clampTime(watermark);
    const groups: number[] = [];
    for (let g = this.range.start; g <= this.range.end; g++)
      if (this.bound[g - this.range.start] <= limit) groups.push(g);
    const out: Timer[] = [];
    if (groups.length === 0) return out;
    // Opening an iterator costs a few native round trips: when many groups are due (a tumbling
    // window ends for every key at once), one scan over all of them is much cheaper. Only the
    // window layout does it: that table holds nothing but window entries, so the groups' future
    // windows are the only extra entries read (sessions' tables also hold per-key session state).
    if (this.layout === 'window-entries' && groups.length > 4) {
      await this.scanDue(groups[0], groups[groups.length - 1], limit, out);
    } else {
      for (const g of groups) await this.scanDue(g, g, limit, out);
    }
    return out;
  }

  /** Scans groups `first..last` (reading only the due ones' timers) and resets their bounds. */
  private async scanDue(first: number, last: number, limit: number, out: Timer[]): Promise<void> {
    const timeAt = GROUP_PREFIX_WIDTH + 1;
    // Entries are ordered by a time <= their timer's: window end (timer end - 1 or later) or timer time.
    const stopAfter = this.layout === 'timer-entries' ? limit : limit + 1;
    const from = kindRange(first, this.kind).gte;
    const to = kindRange(last, this.kind).lt;
    let group = -1;
    let skip = true;
    let next = Infinity;
    const close = (): void => {
      if (group >= 0 && !skip) this.bound[group - this.range.start] = next;
    };
    const due = new Set<number>();
    for (let g = first; g <= last; g++) {
      if (this.bound[g - this.range.start] > limit) continue;
      due.add(g);
      // Exact again after the scan: the earliest timer left, or none if the group has no entry.
      this.bound[g - this.range.start] = Infinity;
    }
    for await (const [k, v] of this.table.scan({ gte: from, lt: to })) {
      const g = keyGroupOfKey(k);
      if (g !== group) {
        close();
        group = g;
        skip = !due.has(g);
        next = Infinity;
      }
      if (skip) continue;
      if (decodeTime(k, timeAt) > stopAfter) {
        const t = timerOfEntry(this.layout, k, v).time;
        if (t < next) next = t;
        close();
        skip = true; // the rest of this group is later still
        continue;
      }
      const t = timerOfEntry(this.layout, k, v);
      if (t.time <= limit) out.push(t);
      else if (t.time < next) next = t.time; // a fired window waiting for its cleanup
    }
    close();
  }
}

export class HeapTimerQueue implements TimerIndex {
  /**
   * Pending timers by firing time, as ids only (one string the state entry already holds, instead
   * of an object per window: fewer long-lived objects, less GC). The rest is parsed when due.
   */
  private readonly byTime = new Map<number, Set<string>>();
  /** Binary min-heap of the distinct times in `byTime` (a time may linger after its set emptied). */
  private readonly heap: number[] = [];
  private readonly kind: 'W' | 'T';

  constructor(
    private readonly table: StateTable<unknown>,
    private readonly layout: TimerLayout,
  ) {
    this.kind = layout === 'timer-entries' ? 'T' : 'W';
  }

  async rebuild(): Promise<void> {
    this.byTime.clear();
    this.heap.length = 0;
    const kindCode = this.kind.charCodeAt(0);
    for await (const [k, v] of this.table.scan()) {
      if (k.charCodeAt(GROUP_PREFIX_WIDTH) === kindCode) this.add(k, timerOfEntry(this.layout, k, v).time);
    }
  }

  register(writes: StateWrite[], timer: Timer): void {
    if (this.layout === 'timer-entries') writes.push([timer.id, 1]);
    this.add(timer.id, timer.time);
  }

  delete(writes: StateWrite[], timer: Timer): void {
    if (this.layout === 'timer-entries') writes.push([timer.id, undefined]);
    this.byTime.get(timer.time)?.delete(timer.id);
  }

  async due(watermark: number): Promise<Timer[]> {
    const limit = clampTime(watermark);
    const out: Timer[] = [];
    const heap = this.heap;
    while (heap.length > 0 && heap[0] <= limit) {
      const time = this.pop();
      const ids = this.byTime.get(time);
      this.byTime.delete(time);
      if (ids === undefined) continue;
      for (const id of ids) {
        if (this.layout === 'timer-entries') {
          out.push({ id, ...parseTimerKey(id) });
        } else {
          const w = parseAlignedWindowKey(id);
          out.push({ id, keyGroup: w.keyGroup, time, end: w.end, key: w.key });
        }
      }
    }
    return out;
  }

  private add(id: string, time: number): void {
    let ids = this.byTime.get(time);
    if (ids === undefined) {
      ids = new Set();
      this.byTime.set(time, ids);
      this.push(time);
    }
    ids.add(id);
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
export function compareTimers(a: Timer, b: Timer): number {
  return a.end - b.end || (a.key < b.key ? -1 : a.key > b.key ? 1 : a.time - b.time);
}
