/**
 * `join.window` with a session window: Flink's window join over session windows formed from the
 * records of BOTH inputs together (a session window over the union, keyed by the join key; see
 * `keyed-sessions.ts` for merging and lateness). When the watermark passes a session's end, every
 * pair of a left and a right record of that session is emitted (result time end - 1, as window
 * results; inner semantics, as the tumbling / sliding window join), with the session's bounds as
 * `window_start` / `window_end`, and the session is dropped.
 *
 * Order: sessions in end, then key order; within one session, left records in arrival order, each
 * with the right records in arrival order (merged sessions interleave their records by arrival).
 *
 * Keyed state, table `wjoin`: `gggg:S<key>` -> `{ q, s: [{ start, end, p: { L, R } }] }`.
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
import type { KeyBy } from '../../../../sql/index.ts';
import type { CompiledJoinSelect } from '../../../../sql/join-select.ts';
import type { SessionWindowAssigner } from '../../../../time/windows/assigners.ts';
import { isoTime } from '../../../../time/windows/index.ts';
import { ChangelogBuffer, encodeWm, restoredWatermark, type WatermarkState } from './keyed-support.ts';
import { KeyedSessions, type KeySessions, type SessionPayload, type SessionRecord } from './keyed-sessions.ts';
import { WINDOW_JOIN_TABLE } from './window-join-operator.ts';

export interface SessionJoinPlan {
  nodeId: string;
  leftKey: KeyBy;
  rightKey: KeyBy;
  assigner: SessionWindowAssigner;
  select: CompiledJoinSelect;
}

interface Held {
  r: Row;
  q: number;
}
interface Sides {
  L: Held[];
  R: Held[];
}
interface Item {
  left: boolean;
  r: Row;
}

/** Two arrival-ordered lists as one. */
function mergeByArrival(a: Held[], b: Held[]): Held[] {
  if (b.length === 0) return a;
  if (a.length === 0) return b;
  const out: Held[] = [];
  let i = 0,
    j = 0;
  while (i < a.length && j < b.length) out.push(a[i].q <= b[j].q ? a[i++] : b[j++]);
  while (i < a.length) out.push(a[i++]);
  while (j < b.length) out.push(b[j++]);
  return out;
}

const SIDES: SessionPayload<Sides, Item> = {
  create: () => ({ L: [], R: [] }),
  add: (p, item, q) => void (item.left ? p.L : p.R).push({ r: item.r, q }),
  merge: (a, b) => ({ L: mergeByArrival(a.L, b.L), R: mergeByArrival(a.R, b.R) }),
};

export class SessionWindowJoinOperator implements StreamOperator {
  private ctx!: OperatorContext;
  private out!: OperatorOutput;
  private sessions!: KeyedSessions<Sides, Item>;
  private watermark = -Infinity;
  private readonly buffer = new ChangelogBuffer();
  private readonly what: string;

  constructor(private readonly plan: SessionJoinPlan) {
    this.what = `join.window '${plan.nodeId}'`;
  }

  async open(ctx: OperatorContext, out: OperatorOutput, restored?: { operator?: unknown[] }): Promise<void> {
    if (ctx.state === null) throw new Error(`${this.what} needs keyed state, but the runtime gave it none`);
    this.ctx = ctx;
    this.out = out;
    const table = ctx.state.table<KeySessions<Sides>>(WINDOW_JOIN_TABLE);
    this.sessions = new KeyedSessions(table, this.plan.assigner.gap, SIDES, this.what);
    this.watermark = restoredWatermark(restored?.operator);
    await this.sessions.open();
  }

  async processBatch(batch: RecordBatch, input: number): Promise<void> {
    const { rows, ts, sourceWatermarks: sw } = batch;
    if (rows.length === 0) return;
    const left = input === 0;
    const key = left ? this.plan.leftKey : this.plan.rightKey;
    const records: Array<SessionRecord<Item>> = new Array(rows.length);
    for (let i = 0; i < rows.length; i++) {
      if (Number.isNaN(ts[i]))
        throw new Error(`${this.what} received a record without an event time: set eventTime on its source`);
      const w = sw !== undefined && sw[i] > this.watermark ? sw[i] : this.watermark;
      records[i] = { key: key.keyOf(rows[i]), ts: ts[i], watermark: w, item: { left, r: rows[i] } };
    }
    const late = await this.sessions.add(this.ctx, records);
    if (late > 0) this.ctx.metrics.lateRecords(late);
  }

  async processWatermark(watermark: number): Promise<void> {
    if (!(watermark > this.watermark)) return;
    this.watermark = watermark;
    const select = this.plan.select;
    for (const s of await this.sessions.fire(watermark)) {
      const bounds = { window_start: isoTime(s.start), window_end: isoTime(s.end) };
      for (const l of s.p.L) for (const r of s.p.R) this.buffer.add('+I', select.project(l.r, r.r, bounds), s.end - 1);
    }
    this.buffer.flush(this.out, false);
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
