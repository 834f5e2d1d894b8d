/**
 * Tumbling and sliding windows for the relational operators (`join.window`, window `topn`), with
 * the window operator's semantics: a record belongs to every window its time falls in; a window is
 * late when end - 1 is at or below max(operator watermark, the record's source watermark), and a
 * record all of whose windows are late is dropped and counted. A window fires once, when the
 * watermark reaches end - 1 (these nodes have no allowed lateness), and its state is then dropped.
 *
 * State: one entry per window and key in the operator's table, `gggg:<end>:<key>` -> the
 * subclass's entry, whose `s` is the window's start. Each entry has a timer at end - 1, pushed
 * when the entry is created and rebuilt by a scan on open. Windows fire in end, then key order,
 * into one append-only batch.
 */
import type { RecordBatch, Row } from '../../../../contracts/operator.ts';
import type { KeyedStateBackend, StateTable } from '../../../../contracts/keyed-state.ts';
import type { AlignedWindowAssigner } from '../../../../time/windows/assigners.ts';
import { isoTime } from '../../../../time/windows/index.ts';
import { GROUP_PREFIX_WIDTH, TIME_WIDTH, decodeTime, encodeTime } from '../window/state-keys.ts';
import { KeyedOperator } from '../base/keyed-operator.ts';
import { ChangelogBuffer, ownedStateKey } from './keyed-support.ts';

/** One record in one of its open windows: the window's state key, the record's index, the window start. */
export interface WindowTarget {
  sk: string;
  i: number;
  start: number;
}

/** The window columns of a result row (a type, not an interface, so that it is a Row). */
export type WindowBounds = { window_start: string; window_end: string };

export abstract class AlignedWindowOperator<E extends { s: number }> extends KeyedOperator {
  protected table!: StateTable<E>;
  protected readonly buffer = new ChangelogBuffer();
  private readonly ends: Float64Array;

  constructor(
    what: string,
    private readonly tableName: string,
    protected readonly assigner: AlignedWindowAssigner,
  ) {
    super(what);
    this.ends = new Float64Array(assigner.windowsPerRecord);
  }

  protected async openState(state: KeyedStateBackend): Promise<void> {
    this.table = state.table<E>(this.tableName);
    for await (const [k] of this.table.scan()) this.timers.push(decodeTime(k, GROUP_PREFIX_WIDTH) - 1, k);
  }

  /** A new window's entry. */
  protected abstract createEntry(start: number): E;

  /**
   * Assigns a batch's records to their open windows (first, for one getMany per batch) and reads
   * those windows' entries, creating the missing ones (`created`) with their timer. `targets` are
   * in record order. Null when every record was late.
   */
  protected async openWindows(
    batch: RecordBatch,
    keyOf: (row: Row) => string,
  ): Promise<{ targets: WindowTarget[]; entries: Map<string, E>; created: Set<string> } | null> {
    const { rows, ts, sourceWatermarks: sw } = batch;
    const ends = this.ends;
    const size = this.assigner.size;
    const targets: WindowTarget[] = [];
    let late = 0;
    for (let i = 0; i < rows.length; i++) {
      const t = ts[i];
      if (Number.isNaN(t)) throw this.noEventTime();
      const w = this.latenessWatermark(sw, i);
      const k = keyOf(rows[i]);
      const n = this.assigner.assignEnds(t, ends);
      let placed = false;
      for (let e = n - 1; e >= 0; e--) {
        const end = ends[e];
        if (end - 1 <= w) continue;
        placed = true;
        targets.push({ sk: ownedStateKey(this.ctx, this.what, k, `${encodeTime(end)}:`), i, start: end - size });
      }
      if (!placed) late++;
    }
    if (late > 0) this.ctx.metrics.lateRecords(late);
    if (targets.length === 0) return null;
    const distinct = [...new Set(targets.map((x) => x.sk))];
    const got = await this.table.getMany(distinct);
    const entries = new Map<string, E>();
    const created = new Set<string>();
    distinct.forEach((k, j) => {
      let e = got[j];
      if (e === undefined) {
        e = this.createEntry(targets.find((x) => x.sk === k)!.start);
        this.timers.push(decodeTime(k, GROUP_PREFIX_WIDTH) - 1, k);
        created.add(k);
      }
      entries.set(k, e);
    });
    return { targets, entries, created };
  }

  /** Adds a fired window's result rows to `buffer` (their time: end - 1). */
  protected abstract fire(entry: E, bounds: WindowBounds, end: number): void;

  /** Fires every window that ends at or before the watermark, in end then key order, and drops it. */
  protected override async onTimers(due: string[]): Promise<void> {
    due.sort(); // state keys sort by group, then end: re-sorted below
    const entries = await this.table.getMany(due);
    const fired: Array<{ end: number; key: string; e: E }> = [];
    due.forEach((k, i) => {
      const e = entries[i];
      if (e !== undefined)
        fired.push({ end: decodeTime(k, GROUP_PREFIX_WIDTH), key: k.slice(GROUP_PREFIX_WIDTH + TIME_WIDTH + 1), e });
    });
    fired.sort((a, b) => a.end - b.end || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    for (const { end, e } of fired) this.fire(e, { window_start: isoTime(e.s), window_end: isoTime(end) }, end);
    await this.table.writeMany(due.map((k) => [k, undefined] as const));
    this.buffer.flush(this.out, false);
  }
}
