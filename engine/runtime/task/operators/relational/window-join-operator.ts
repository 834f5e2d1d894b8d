/**
 * `join.window`: Flink's window join. Records of both inputs are assigned to tumbling or sliding
 * event-time windows; when the watermark passes a window's end, every pair of a left and a right
 * record with equal keys in that window is emitted (result time end - 1, as window results), and
 * the window's state is dropped. `window_start` / `window_end` are selectable.
 * Session windows are `session-join-operator.ts`.
 *
 * Lateness is judged as in the window operator: a record's window is late when end - 1 is at or
 * below max(operator watermark, the record's source watermark); a record all of whose windows are
 * late is dropped and counted. Results are emitted in window-end, then key order; within one key
 * and window, left records in arrival order, each with the right records in arrival order.
 *
 * Keyed state, table `wjoin`: `gggg:<end>:<key>` -> `{ s: start, L: [{ r, t }], R: [{ r, t }] }`.
 * The expiry queue (memory, rebuilt by a scan on open) holds each window's firing time.
 * Operator state: the input watermark.
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
import type { KeyBy } from '../../../../sql/index.ts';
import type { CompiledJoinSelect } from '../../../../sql/join-select.ts';
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

export const WINDOW_JOIN_TABLE = 'wjoin';

export interface WindowJoinPlan {
  nodeId: string;
  leftKey: KeyBy;
  rightKey: KeyBy;
  assigner: AlignedWindowAssigner;
  select: CompiledJoinSelect;
}

interface Side {
  r: Row;
  t: number;
}
interface WindowEntry {
  s: number;
  L: Side[];
  R: Side[];
}

export class WindowJoinOperator implements StreamOperator {
  private ctx!: OperatorContext;
  private out!: OperatorOutput;
  private table!: StateTable<WindowEntry>;
  private watermark = -Infinity;
  private readonly expiry = new ExpiryQueue();
  private readonly buffer = new ChangelogBuffer();
  private readonly ends: Float64Array;

  constructor(private readonly plan: WindowJoinPlan) {
    this.ends = new Float64Array(plan.assigner.windowsPerRecord);
  }

  async open(ctx: OperatorContext, out: OperatorOutput, restored?: { operator?: unknown[] }): Promise<void> {
    if (ctx.state === null)
      throw new Error(`join.window '${this.plan.nodeId}' needs keyed state, but the runtime gave it none`);
    this.ctx = ctx;
    this.out = out;
    this.table = ctx.state.table<WindowEntry>(WINDOW_JOIN_TABLE);
    this.watermark = restoredWatermark(restored?.operator);
    for await (const [k] of this.table.scan()) this.expiry.push(decodeTime(k, GROUP_PREFIX_WIDTH) - 1, k);
  }

  async processBatch(batch: RecordBatch, input: number): Promise<void> {
    const { rows, ts, sourceWatermarks: sw } = batch;
    if (rows.length === 0) return;
    const left = input === 0;
    const key = left ? this.plan.leftKey : this.plan.rightKey;
    const what = `join.window '${this.plan.nodeId}'`;
    const ends = this.ends;
    const size = this.plan.assigner.size;
    // Assign first (one getMany for the batch), then append in record order.
    const targets: Array<{ sk: string; i: number; start: number }> = [];
    let late = 0;
    for (let i = 0; i < rows.length; i++) {
      const t = ts[i];
      if (Number.isNaN(t))
        throw new Error(`${what} received a record without an event time: set eventTime on its source`);
      const w = sw !== undefined && sw[i] > this.watermark ? sw[i] : this.watermark;
      const k = key.keyOf(rows[i]);
      const n = this.plan.assigner.assignEnds(t, ends);
      let placed = false;
      for (let e = n - 1; e >= 0; e--) {
        const end = ends[e];
        if (end - 1 <= w) continue;
        placed = true;
        targets.push({ sk: ownedStateKey(this.ctx, what, k, `${encodeTime(end)}:`), i, start: end - size });
      }
      if (!placed) late++;
    }
    if (late > 0) this.ctx.metrics.lateRecords(late);
    if (targets.length === 0) return;
    const distinct = [...new Set(targets.map((x) => x.sk))];
    const got = await this.table.getMany(distinct);
    const entries = new Map<string, WindowEntry>();
    distinct.forEach((k, j) => {
      let e = got[j];
      if (e === undefined) {
        e = { s: targets.find((x) => x.sk === k)!.start, L: [], R: [] };
        this.expiry.push(decodeTime(k, GROUP_PREFIX_WIDTH) - 1, k);
      }
      entries.set(k, e);
    });
    for (const x of targets) {
      const e = entries.get(x.sk)!;
      (left ? e.L : e.R).push({ r: rows[x.i], t: ts[x.i] });
    }
    await this.table.writeMany(distinct.map((k) => [k, entries.get(k)!] as const));
  }

  async processWatermark(watermark: number): Promise<void> {
    if (!(watermark > this.watermark)) return;
    this.watermark = watermark;
    const due = this.expiry.popDue(watermark).sort(); // state keys sort by group, then end: re-sorted below
    if (due.length > 0) {
      const entries = await this.table.getMany(due);
      const fired: Array<{ end: number; key: string; e: WindowEntry }> = [];
      due.forEach((k, i) => {
        const e = entries[i];
        if (e !== undefined)
          fired.push({ end: decodeTime(k, GROUP_PREFIX_WIDTH), key: k.slice(GROUP_PREFIX_WIDTH + TIME_WIDTH + 1), e });
      });
      fired.sort((a, b) => a.end - b.end || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
      const select = this.plan.select;
      for (const { end, e } of fired) {
        const bounds = { window_start: isoTime(e.s), window_end: isoTime(end) };
        for (const l of e.L) for (const r of e.R) this.buffer.add('+I', select.project(l.r, r.r, bounds), end - 1);
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
