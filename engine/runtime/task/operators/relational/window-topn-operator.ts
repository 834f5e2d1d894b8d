/**
 * `topn` with `window`: Flink's window Top-N. Each record is assigned to its tumbling or sliding
 * event-time windows; per window and partition the operator keeps the first `limit` rows in
 * `orderBy` order (ties: arrival order). When the watermark passes a window's end it emits that
 * window's rows once, append-only, with window_start, window_end and rownum (result time end - 1),
 * in window-end, partition order, and drops the window's state.
 * Session windows are `session-topn-operator.ts`.
 *
 * Lateness as the window operator: a record's window is late when end - 1 is at or below
 * max(operator watermark, the record's source watermark); a record with no open window is dropped
 * and counted.
 *
 * Keyed state, table `wtopn`: `gggg:<end>:<partition key>` -> `{ s: start, rows: [{ r, v }] }`.
 * The expiry queue (memory, rebuilt by a scan on open) holds each window's firing time.
 */
import type {
  OperatorContext,
  OperatorOutput,
  OperatorSnapshot,
  RecordBatch,
  Row,
  StreamOperator,
} from '../../../../contracts/operator.ts';
import type { StateTable } from '../../../../contracts/keyed-state.ts';
import type { AlignedWindowAssigner } from '../../../../time/windows/assigners.ts';
import { isoTime } from '../../../../time/windows/index.ts';
import { GROUP_PREFIX_WIDTH, TIME_WIDTH, decodeTime, encodeTime } from '../window/state-keys.ts';
import {
  ChangelogBuffer,
  ExpiryQueue,
  encodeWm,
  ownedStateKey,
  restoredWatermark,
  type WatermarkState,
} from './keyed-support.ts';
import { RANK_COLUMN, type TopNPlan } from './topn-operator.ts';

export const WINDOW_TOPN_TABLE = 'wtopn';

interface Held {
  r: Row;
  v: unknown[];
}
interface WindowTop {
  s: number;
  rows: Held[];
}

export class WindowTopNOperator implements StreamOperator {
  private ctx!: OperatorContext;
  private out!: OperatorOutput;
  private table!: StateTable<WindowTop>;
  private watermark = -Infinity;
  private readonly expiry = new ExpiryQueue();
  private readonly buffer = new ChangelogBuffer();
  private readonly ends: Float64Array;

  constructor(
    private readonly plan: TopNPlan,
    private readonly assigner: AlignedWindowAssigner,
  ) {
    this.ends = new Float64Array(assigner.windowsPerRecord);
  }

  async open(ctx: OperatorContext, out: OperatorOutput, restored?: { operator?: unknown[] }): Promise<void> {
    if (ctx.state === null)
      throw new Error(`topn '${this.plan.nodeId}' needs keyed state, but the runtime gave it none`);
    this.ctx = ctx;
    this.out = out;
    this.table = ctx.state.table<WindowTop>(WINDOW_TOPN_TABLE);
    this.watermark = restoredWatermark(restored?.operator);
    for await (const [k] of this.table.scan()) this.expiry.push(decodeTime(k, GROUP_PREFIX_WIDTH) - 1, k);
  }

  async processBatch(batch: RecordBatch): Promise<void> {
    const { rows, ts, sourceWatermarks: sw } = batch;
    if (rows.length === 0) return;
    const { partition, order, limit } = this.plan;
    const what = `topn '${this.plan.nodeId}'`;
    const ends = this.ends;
    const size = this.assigner.size;
    const targets: Array<{ sk: string; i: number; start: number }> = [];
    let late = 0;
    for (let i = 0; i < rows.length; i++) {
      const t = ts[i];
      if (Number.isNaN(t))
        throw new Error(`${what} received a record without an event time: set eventTime on its source`);
      const w = sw !== undefined && sw[i] > this.watermark ? sw[i] : this.watermark;
      const k = partition.keyOf(rows[i]);
      const n = this.assigner.assignEnds(t, ends);
      let placed = false;
      for (let e = n - 1; e >= 0; e--) {
        if (ends[e] - 1 <= w) continue;
        placed = true;
        targets.push({ sk: ownedStateKey(this.ctx, what, k, `${encodeTime(ends[e])}:`), i, start: ends[e] - size });
      }
      if (!placed) late++;
    }
    if (late > 0) this.ctx.metrics.lateRecords(late);
    if (targets.length === 0) return;
    const distinct = [...new Set(targets.map((x) => x.sk))];
    const got = await this.table.getMany(distinct);
    const entries = new Map<string, WindowTop>();
    const changed = new Set<string>();
    distinct.forEach((k, j) => {
      let e = got[j];
      if (e === undefined) {
        e = { s: targets.find((x) => x.sk === k)!.start, rows: [] };
        this.expiry.push(decodeTime(k, GROUP_PREFIX_WIDTH) - 1, k);
        changed.add(k);
      }
      entries.set(k, e);
    });
    for (const x of targets) {
      const held = entries.get(x.sk)!.rows;
      const v = order.valuesOf(rows[x.i]);
      let pos = held.length;
      while (pos > 0 && order.compareValues(v, held[pos - 1].v) < 0) pos--;
      if (pos >= limit) continue;
      held.splice(pos, 0, { r: rows[x.i], v });
      if (held.length > limit) held.length = limit;
      changed.add(x.sk);
    }
    await this.table.writeMany([...changed].map((k) => [k, entries.get(k)!] as const));
  }

  async processWatermark(watermark: number): Promise<void> {
    if (!(watermark > this.watermark)) return;
    this.watermark = watermark;
    const due = this.expiry.popDue(watermark);
    if (due.length > 0) {
      const entries = await this.table.getMany(due);
      const fired: Array<{ end: number; key: string; e: WindowTop }> = [];
      due.forEach((k, i) => {
        const e = entries[i];
        if (e !== undefined)
          fired.push({ end: decodeTime(k, GROUP_PREFIX_WIDTH), key: k.slice(GROUP_PREFIX_WIDTH + TIME_WIDTH + 1), e });
      });
      fired.sort((a, b) => a.end - b.end || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
      for (const { end, e } of fired) {
        const bounds = { window_start: isoTime(e.s), window_end: isoTime(end) };
        e.rows.forEach((h, r) => this.buffer.add('+I', { ...bounds, ...h.r, [RANK_COLUMN]: r + 1 }, end - 1));
      }
      await this.table.writeMany(due.map((k) => [k, undefined] as const));
      this.buffer.flush(this.out, false);
    }
    this.out.emitWatermark(watermark);
  }

  async snapshotState(checkpointId: number): Promise<OperatorSnapshot> {
    const operator: WatermarkState = { watermark: encodeWm(this.watermark) };
    return { operator, keyed: this.ctx.state!.snapshot(checkpointId) };
  }

  async notifyCheckpointComplete(): Promise<void> {}
  async endInput(): Promise<void> {}
  async close(): Promise<void> {}
}
