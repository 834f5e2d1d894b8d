/**
 * Tumbling and sliding windows (Flink's WindowOperator with a non-merging assigner and the default
 * EventTimeTrigger). The hot path of the engine: a batch is first grouped by (key, window) on the
 * heap, then costs at most one `getMany` and one `writeMany`, whatever its size.
 *
 * Windows live through many batches, so (key, window) entries are cached across batches (state
 * key, state object). A window is read from state once (again only after `onTimers` rewrote it) and
 * written at once when it is new; later updates of a cached window are held back ("dirty") and
 * written together by `flush`, which the operator calls before firing windows and before a
 * snapshot. Timer times never change by an update (only `onTimers` moves them), so the timer
 * index may scan state with held-back updates pending.
 *
 * Per window the state entry holds the key's values, one accumulator per aggregate and the time
 * of the window's single pending timer: its firing time (end - 1) until it fired, then its cleanup
 * time (end - 1 + allowedLateness). A record for a window that already fired but is not yet cleaned
 * up updates it and fires it again at once, with the updated result (Flink's late firing).
 *
 * Over a changelog (`plan.changelog`), a -U/-D row is retracted from the window(s) of its event
 * time (the old image carries the old time), a +I/+U row added to those of its own: an update
 * that changes the event time moves the row between windows. The same lateness rule applies to
 * both (with allowedLateness a retraction refires a fired window, as an insert does). A window
 * whose row count is back to zero emits nothing when it fires or refires (Flink emits no row for
 * an empty window).
 */
import type { RecordBatch, Row } from '../../../../contracts/operator.ts';
import type { AlignedWindowAssigner } from '../../../../time/windows/index.ts';
import { alignedWindowKey } from './state-keys.ts';
import type { StateWrite, Timer } from './timers.ts';
import { ResultBuffer, type WindowEnv, type WindowProcessor } from './window-env.ts';
import { KeyIndex } from './key-index.ts';
import { checkRestoredWidth } from './aggregates.ts';

export interface AlignedWindowState {
  /** Key values in keyBy order. */
  k: unknown[];
  /** Accumulators, one per aggregate. */
  a: unknown[];
  /** Time of the pending timer. */
  t: number;
}

/**
 * What the operator remembers about a record key across batches: derived from the key alone
 * (key group, key values), plus a small cache of the key's recent windows.
 */
interface KeyEntry {
  key: string;
  keyGroup: number;
  /** Key values in keyBy order, shared by all windows of the key (never mutated). */
  keyValues: unknown[];
  /** The window the key's last record went to (most records of a key share one). */
  last: KeyWindow | null;
  /** Every cached window of the key, `last` included. */
  windows: KeyWindow[];
}

/**
 * One (key, window), cached across batches so that a window living through many batches builds
 * its state key once and, while the cache is valid, is not read back from state each batch. Only
 * this operator writes its table: between two batches a window entry changes only in `onTimers`,
 * which handles exactly the windows whose pending timer time is <= the watermark it ran at
 * (`firedUpTo`), rewriting or deleting them. So a cached state whose `t` is <= `firedUpTo` is
 * stale, any other is current. Nothing here must survive a restore (a new operator starts with an
 * empty cache and reads state).
 */
interface KeyWindow {
  owner: KeyEntry;
  end: number;
  /** The state key, `alignedWindowKey(...)`. */
  id: string;
  /** The write of this window, reused every batch: [id, current state]. */
  write: StateWrite;
  /** The state as last read or created; current while `valid` and `state.t > firedUpTo`. */
  state: AlignedWindowState | null;
  valid: boolean;
  /** Updated since last written: in `dirty`, written by the next `flush`. */
  dirty: boolean;
  /** Batch in which the window was created (and written with its first records). */
  createdIn: number;
  /** Last batch that touched the window, and its index in that batch's `touched` list. */
  batch: number;
  slot: number;
  /** Already fired (end - 1 <= watermark) in the current batch: every record fires it again. */
  refire: boolean;
}

/**
 * Bound on remembered keys: past it the cache starts over (it only saves recomputation). Kept well
 * below the key counts of high-cardinality jobs: with ~0.1 records per key and window, a 200k cache
 * cost more in GC than it saved (2M events over 100k keys: 7.7 s before the cache, 10-11 s at 200k,
 * 8.4 s at 20k); jobs with few keys never reach it.
 */
const KEY_CACHE_LIMIT = 20_000;

export class AlignedWindows implements WindowProcessor {
  private readonly ends: Float64Array;
  // (record, window) pairs of the current batch; reused between batches.
  private pairRecord = new Int32Array(1024);
  private pairWindow = new Int32Array(1024);
  /** Windows of the current batch, in first-touch order; reused between batches. */
  private readonly touched: KeyWindow[] = [];
  private readonly keys: KeyIndex<KeyEntry>;
  /** Cached windows per key beyond which windows untouched in the current batch are forgotten. */
  private readonly windowsPerKey: number;
  private batchNo = 0;
  /** Cached windows with held-back updates. */
  private dirty: KeyWindow[] = [];
  /** A dirty window left the cache: flush before reading state (it could be read back stale). */
  private dirtyEvicted = false;
  /** The watermark at which `onTimers` last handled due timers (see KeyWindow). */
  private firedUpTo = -Infinity;

  constructor(
    private readonly env: WindowEnv,
    private readonly assigner: AlignedWindowAssigner,
  ) {
    this.ends = new Float64Array(assigner.windowsPerRecord + 1);
    this.windowsPerKey = assigner.windowsPerRecord + 2;
    this.keys = new KeyIndex<KeyEntry>(env.plan.key, (key, row) => ({
      key,
      keyGroup: env.keyGroupOf(key),
      keyValues: env.keyValues(row),
      last: null,
      windows: [],
    }));
  }

  async processBatch(batch: RecordBatch): Promise<void> {
    const env = this.env;
    const { rows, ts, kinds } = batch;
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
    const watermark = env.watermark;
    const allowedLateness = env.plan.allowedLateness;
    const lateLimit = watermark - allowedLateness;
    const sw = batch.sourceWatermarks;
    const keys = this.keys;
    if (keys.size > KEY_CACHE_LIMIT) {
      await this.flush();
      keys.clear();
    }
    const batchNo = ++this.batchNo;
    const touched = this.touched;
    touched.length = 0;
    // Tumbling windows tile time: a record inside the key's last window belongs to it alone, which
    // saves the assigner's two floating-point modulos for most records.
    const tiling = assigner.slide === assigner.size;
    const size = assigner.size;
    let pairs = 0;

    for (let i = 0; i < n; i++) {
      const t = ts[i];
      if (t !== t) throw env.noEventTime();
      const row = rows[i];
      // Retractions are paired as ~i (negative), so the pair arrays need no third column.
      const record = kinds !== undefined && (kinds[i] === '-U' || kinds[i] === '-D') ? ~i : i;
      const entry = keys.entryOf(row);
      const time = Math.floor(t);
      const last = entry.last;
      let count: number;
      if (tiling && last !== null && time < last.end && time >= last.end - size) {
        ends[0] = last.end;
        count = 1;
      } else {
        count = assigner.assignEnds(time, ends);
      }
      let placed = false;
      for (let w = 0; w < count; w++) {
        const end = ends[w];
        // isWindowLate, against the record's source watermark too (see RecordBatch.sourceWatermarks)
        if (end - 1 <= lateLimit || (sw !== undefined && end - 1 + allowedLateness <= sw[i])) continue;
        let kw = entry.last;
        if (kw === null || kw.end !== end) kw = this.windowOf(entry, end, batchNo);
        if (kw.batch !== batchNo) {
          if (kw.valid && kw.state!.t <= this.firedUpTo) kw.valid = false;
          kw.batch = batchNo;
          kw.slot = touched.length;
          kw.refire = end - 1 <= watermark;
          touched.push(kw);
        }
        pairRecord[pairs] = record;
        pairWindow[pairs] = kw.slot;
        pairs++;
        placed = true;
      }
      if (!placed) env.late(row, t);
    }

    if (touched.length > 0) await this.update(rows, pairs);
    env.flushLate();
  }

  /** The key's window ending at `end`, from its cache or new (and then cached, as `last`). */
  private windowOf(entry: KeyEntry, end: number, batchNo: number): KeyWindow {
    const windows = entry.windows;
    for (let i = 0; i < windows.length; i++) {
      if (windows[i].end === end) return (entry.last = windows[i]);
    }
    if (windows.length >= this.windowsPerKey) {
      // Forget the windows this batch has not touched (typically fired and cleared ones).
      let j = 0;
      for (let i = 0; i < windows.length; i++) {
        const kw = windows[i];
        if (kw.batch === batchNo) windows[j++] = kw;
        else if (kw.dirty) this.dirtyEvicted = true;
      }
      windows.length = j;
    }
    const id = alignedWindowKey(entry.keyGroup, end, entry.key);
    const kw: KeyWindow = {
      owner: entry,
      end,
      id,
      write: [id, undefined],
      state: null,
      valid: false,
      dirty: false,
      createdIn: 0,
      batch: 0,
      slot: -1,
      refire: false,
    };
    windows.push(kw);
    return (entry.last = kw);
  }

  private async update(rows: Row[], pairs: number): Promise<void> {
    const env = this.env;
    const aggs = env.plan.aggregates;
    const touched = this.touched;
    const count = touched.length;
    let missing: KeyWindow[] | null = null;
    for (let g = 0; g < count; g++) if (!touched[g].valid) (missing ??= []).push(touched[g]);
    // Windows written this batch: new ones (and, with timer entries, their timers).
    const writes: StateWrite[] = [];
    if (missing !== null) {
      if (this.dirtyEvicted) await this.flush();
      const stored = (await env.table.getMany(missing.map((kw) => kw.id))) as Array<AlignedWindowState | undefined>;
      for (let j = 0; j < missing.length; j++) {
        const kw = missing[j];
        // Objects read from state may be updated in place: every backend's snapshot is a copy
        // taken in its synchronous part (heap: deep copy; RocksDB: bytes), never a live reference.
        let state = stored[j];
        if (state !== undefined) checkRestoredWidth(aggs, state.a, `window '${env.plan.nodeId}'`);
        if (state === undefined) {
          const e = kw.owner;
          state = { k: e.keyValues, a: aggs.create(), t: env.firstTimerTime(kw.end) };
          env.timers.register(writes, { id: kw.id, keyGroup: e.keyGroup, time: state.t, end: kw.end, key: e.key });
          writes.push(kw.write);
          kw.createdIn = this.batchNo;
        }
        kw.state = state;
        kw.write[1] = state;
        kw.valid = true;
      }
    }

    const refired = new ResultBuffer();
    const size = this.assigner.size;
    const pairRecord = this.pairRecord;
    const pairWindow = this.pairWindow;
    for (let p = 0; p < pairs; p++) {
      const kw = touched[pairWindow[p]];
      const state = kw.state!;
      const r = pairRecord[p];
      if (r >= 0) aggs.add(state.a, rows[r]);
      else aggs.retract(state.a, rows[~r]);
      if (kw.refire && !aggs.isEmpty(state.a))
        refired.add(kw.end, kw.owner.key, env.resultRow(kw.end - size, kw.end, state.k, state.a));
    }
    // Windows already in state are written later (flush); new ones now, so that state holds every
    // window with a pending timer.
    const dirty = this.dirty;
    for (let g = 0; g < count; g++) {
      const kw = touched[g];
      if (!kw.dirty && kw.createdIn !== this.batchNo) {
        kw.dirty = true;
        dirty.push(kw);
      }
    }
    if (writes.length > 0) await env.table.writeMany(writes);
    refired.flush(env.out, false);
  }

  async flush(): Promise<void> {
    this.dirtyEvicted = false;
    const dirty = this.dirty;
    if (dirty.length === 0) return;
    this.dirty = [];
    const writes = new Array<StateWrite>(dirty.length);
    for (let i = 0; i < dirty.length; i++) {
      dirty[i].dirty = false;
      writes[i] = dirty[i].write;
    }
    await this.env.table.writeMany(writes);
  }

  async onTimers(timers: Timer[]): Promise<void> {
    const env = this.env;
    // Every timer <= the watermark is in `timers`: cached windows with such a timer go stale here.
    this.firedUpTo = env.watermark;
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
      if (tm.time === tm.end - 1 && !env.plan.aggregates.isEmpty(s.a))
        fired.add(tm.end, tm.key, env.resultRow(tm.end - size, tm.end, s.k, s.a));
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
