/**
 * Tumbling and sliding windows (Flink's WindowOperator with a non-merging assigner and the default
 * EventTimeTrigger). The hot path of the engine: a batch is first grouped by (key, window) on the
 * heap, then costs one `getMany` and one `writeMany`, whatever its size.
 *
 * Per window the state entry holds the key's values, one accumulator per aggregate and the time
 * of the window's single pending timer: its firing time (end - 1) until it fired, then its cleanup
 * time (end - 1 + allowedLateness). A record for a window that already fired but is not yet cleaned
 * up updates it and fires it again at once, with the updated result (Flink's late firing).
 */
import type { RecordBatch, Row } from '../../operator.ts';
import type { AlignedWindowAssigner } from '../../../time/windows/index.ts';
import { alignedWindowKey } from './state-keys.ts';
import type { StateWrite, Timer } from './timers.ts';
import { ResultBuffer, type WindowEnv, type WindowProcessor } from './window-env.ts';

export interface AlignedWindowState {
  /** Key values in keyBy order. */
  k: unknown[];
  /** Accumulators, one per aggregate. */
  a: unknown[];
  /** Time of the pending timer. */
  t: number;
}

/**
 * What the operator remembers about a record key across batches (a cache: derived from the key
 * alone, so it needs no rebuilding after a restore), plus the windows its records fall into in the
 * current batch (valid while `batch` is the current batch number).
 */
interface BatchKey {
  key: string;
  keyGroup: number;
  /** Key values in keyBy order, shared by all windows of the key (never mutated). */
  keyValues: unknown[];
  batch: number;
  /** The key's last window in this batch (most records of a key share one), as an index in `windows`. */
  lastEnd: number;
  lastGroup: number;
  /** Every window of the key in this batch, once it has more than one: ends and indexes. */
  more: number[] | null;
}

/** Bound on remembered keys: past it the cache starts over (it only saves recomputation). */
const KEY_CACHE_LIMIT = 200_000;

interface BatchWindow {
  owner: BatchKey;
  end: number;
  state: AlignedWindowState | null;
  /** Already fired (end - 1 <= watermark): every record fires it again. */
  refire: boolean;
}

export class AlignedWindows implements WindowProcessor {
  private readonly ends: Float64Array;
  // (record, window) pairs of the current batch; reused between batches.
  private pairRecord = new Int32Array(1024);
  private pairWindow = new Int32Array(1024);
  private readonly keys = new Map<string, BatchKey>();
  private batchNo = 0;

  constructor(private readonly env: WindowEnv, private readonly assigner: AlignedWindowAssigner) {
    this.ends = new Float64Array(assigner.windowsPerRecord + 1);
  }

  async processBatch(batch: RecordBatch): Promise<void> {
    const env = this.env;
    const { rows, ts } = batch;
    const n = rows.length;
    const maxPairs = n * this.assigner.windowsPerRecord;
    if (this.pairRecord.length < maxPairs) {
      this.pairRecord = new Int32Array(maxPairs * 2);
      this.pairWindow = new Int32Array(maxPairs * 2);
    }
    const pairRecord = this.pairRecord;
    const pairWindow = this.pairWindow;
    const ends = this.ends;
    const assigner = this.assigner;
    const lateLimit = env.watermark - env.plan.allowedLateness;
    const keys = this.keys;
    if (keys.size > KEY_CACHE_LIMIT) keys.clear();
    const batchNo = ++this.batchNo;
    const windows: BatchWindow[] = [];
    let pairs = 0;

    for (let i = 0; i < n; i++) {
      const t = ts[i];
      if (t !== t) throw env.noEventTime();
      const row = rows[i];
      const key = env.keyOf(row);
      let bk = keys.get(key);
      if (bk === undefined) {
        bk = { key, keyGroup: env.keyGroupOf(key), keyValues: env.keyValues(row), batch: batchNo, lastEnd: NaN, lastGroup: -1, more: null };
        keys.set(key, bk);
      } else if (bk.batch !== batchNo) {
        bk.batch = batchNo;
        bk.lastEnd = NaN;
        bk.lastGroup = -1;
        bk.more = null;
      }
      const count = assigner.assignEnds(Math.floor(t), ends);
      let placed = false;
      for (let w = 0; w < count; w++) {
        const end = ends[w];
        if (end - 1 <= lateLimit) continue; // isWindowLate
        let g = -1;
        if (bk.lastEnd === end) {
          g = bk.lastGroup;
        } else if (bk.more !== null) {
          const more = bk.more;
          for (let k = 0; k < more.length; k += 2) if (more[k] === end) { g = more[k + 1]; break; }
        }
        if (g < 0) {
          g = windows.length;
          windows.push({ owner: bk, end, state: null, refire: end - 1 <= env.watermark });
          if (bk.lastGroup >= 0) {
            if (bk.more === null) bk.more = [bk.lastEnd, bk.lastGroup];
            bk.more.push(end, g);
          }
        }
        bk.lastEnd = end;
        bk.lastGroup = g;
        pairRecord[pairs] = i;
        pairWindow[pairs] = g;
        pairs++;
        placed = true;
      }
      if (!placed) env.late(row, t);
    }

    if (windows.length > 0) await this.update(rows, windows, pairs);
    env.flushLate();
  }

  private async update(rows: Row[], windows: BatchWindow[], pairs: number): Promise<void> {
    const env = this.env;
    const aggs = env.plan.aggregates;
    const count = windows.length;
    const stateKeys = new Array<string>(count);
    for (let g = 0; g < count; g++) {
      const w = windows[g];
      stateKeys[g] = alignedWindowKey(w.owner.keyGroup, w.end, w.owner.key);
    }
    const stored = (await env.table.getMany(stateKeys)) as Array<AlignedWindowState | undefined>;
    const writes = new Array<StateWrite>(count);
    for (let g = 0; g < count; g++) {
      const w = windows[g];
      // Objects read from state may be updated in place: every backend's snapshot is a copy taken
      // in its synchronous part (heap: deep copy; RocksDB: bytes), never a live reference.
      let state = stored[g];
      if (state === undefined) {
        state = { k: w.owner.keyValues, a: aggs.create(), t: env.firstTimerTime(w.end) };
        env.timers.register(writes, { id: stateKeys[g], keyGroup: w.owner.keyGroup, time: state.t, end: w.end, key: w.owner.key });
      }
      w.state = state;
      writes[g] = [stateKeys[g], state];
    }

    const refired = new ResultBuffer();
    const size = this.assigner.size;
    for (let p = 0; p < pairs; p++) {
      const w = windows[this.pairWindow[p]];
      const state = w.state!;
      aggs.add(state.a, rows[this.pairRecord[p]]);
      if (w.refire) refired.add(w.end, w.owner.key, env.resultRow(w.end - size, w.end, state.k, state.a));
    }
    await env.table.writeMany(writes);
    refired.flush(env.out, false);
  }

  async onTimers(timers: Timer[]): Promise<void> {
    const env = this.env;
    const stateKeys = timers.map((t) => t.id);
    const stored = (await env.table.getMany(stateKeys)) as Array<AlignedWindowState | undefined>;
    const writes: StateWrite[] = [];
    const fired = new ResultBuffer();
    const size = this.assigner.size;
    for (let i = 0; i < timers.length; i++) {
      const tm = timers[i];
      const s = stored[i];
      // A timer the window no longer points at is stale (never expected; harmless to skip).
      if (s === undefined || s.t !== tm.time) continue;
      if (tm.time === tm.end - 1) fired.add(tm.end, tm.key, env.resultRow(tm.end - size, tm.end, s.k, s.a));
      const cleanup = env.cleanupTime(tm.end);
      if (cleanup <= env.watermark) {
        writes.push([tm.id, undefined]);
      } else {
        const next: AlignedWindowState = { k: s.k, a: s.a, t: cleanup };
        writes.push([tm.id, next]);
        env.timers.register(writes, { id: tm.id, keyGroup: tm.keyGroup, time: cleanup, end: tm.end, key: tm.key });
      }
    }
    await env.table.writeMany(writes);
    fired.flush(env.out, true);
  }
}
