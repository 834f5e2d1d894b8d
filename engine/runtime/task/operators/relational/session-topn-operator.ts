/**
 * `topn` with a session `window`: Flink's window Top-N over session windows. Sessions are formed
 * per partition key (see `keyed-sessions.ts` for merging and lateness); each keeps its first
 * `limit` rows in `orderBy` order (ties: arrival order, also across merged sessions). When the
 * watermark passes a session's end its rows are emitted once, append-only, with window_start,
 * window_end and rownum (result time end - 1), in end, partition order, and the session is dropped.
 *
 * Merging two sessions keeps the first `limit` of their union: the top N of a union is the top N
 * of the two top Ns, so nothing a merge could need is ever thrown away.
 *
 * Keyed state, table `wtopn`: `gggg:S<partition key>` -> `{ q, s: [{ start, end, p: [{ r, v, q }] }] }`.
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
import type { SessionWindowAssigner } from '../../../../time/windows/assigners.ts';
import { isoTime } from '../../../../time/windows/index.ts';
import { ChangelogBuffer, encodeWm, restoredWatermark, type WatermarkState } from './keyed-support.ts';
import { KeyedSessions, type KeySessions, type SessionPayload, type SessionRecord } from './keyed-sessions.ts';
import { RANK_COLUMN, type TopNPlan } from './topn-operator.ts';
import { WINDOW_TOPN_TABLE } from './window-topn-operator.ts';

interface Held {
  r: Row;
  v: unknown[];
  q: number;
}

export class SessionTopNOperator implements StreamOperator {
  private ctx!: OperatorContext;
  private out!: OperatorOutput;
  private sessions!: KeyedSessions<Held[], Row>;
  private watermark = -Infinity;
  private readonly buffer = new ChangelogBuffer();
  private readonly what: string;
  private readonly payload: SessionPayload<Held[], Row>;

  constructor(
    private readonly plan: TopNPlan,
    private readonly assigner: SessionWindowAssigner,
  ) {
    this.what = `topn '${plan.nodeId}'`;
    const { order, limit } = plan;
    const before = (a: Held, b: Held): boolean => {
      const c = order.compareValues(a.v, b.v);
      return c < 0 || (c === 0 && a.q < b.q);
    };
    this.payload = {
      create: () => [],
      add: (held, r, q) => {
        const v = order.valuesOf(r);
        let pos = held.length;
        while (pos > 0 && order.compareValues(v, held[pos - 1].v) < 0) pos--;
        if (pos >= limit) return;
        held.splice(pos, 0, { r, v, q });
        if (held.length > limit) held.length = limit;
      },
      merge: (a, b) => {
        const out: Held[] = [];
        let i = 0,
          j = 0;
        while (out.length < limit && (i < a.length || j < b.length))
          out.push(j >= b.length || (i < a.length && before(a[i], b[j])) ? a[i++] : b[j++]);
        return out;
      },
    };
  }

  async open(ctx: OperatorContext, out: OperatorOutput, restored?: { operator?: unknown[] }): Promise<void> {
    if (ctx.state === null) throw new Error(`${this.what} needs keyed state, but the runtime gave it none`);
    this.ctx = ctx;
    this.out = out;
    const table = ctx.state.table<KeySessions<Held[]>>(WINDOW_TOPN_TABLE);
    this.sessions = new KeyedSessions(table, this.assigner.gap, this.payload, this.what);
    this.watermark = restoredWatermark(restored?.operator);
    await this.sessions.open();
  }

  async processBatch(batch: RecordBatch): Promise<void> {
    const { rows, ts, sourceWatermarks: sw } = batch;
    if (rows.length === 0) return;
    const partition = this.plan.partition;
    const records: Array<SessionRecord<Row>> = new Array(rows.length);
    for (let i = 0; i < rows.length; i++) {
      if (Number.isNaN(ts[i]))
        throw new Error(`${this.what} received a record without an event time: set eventTime on its source`);
      const w = sw !== undefined && sw[i] > this.watermark ? sw[i] : this.watermark;
      records[i] = { key: partition.keyOf(rows[i]), ts: ts[i], watermark: w, item: rows[i] };
    }
    const late = await this.sessions.add(this.ctx, records);
    if (late > 0) this.ctx.metrics.lateRecords(late);
  }

  async processWatermark(watermark: number): Promise<void> {
    if (!(watermark > this.watermark)) return;
    this.watermark = watermark;
    for (const s of await this.sessions.fire(watermark)) {
      const bounds = { window_start: isoTime(s.start), window_end: isoTime(s.end) };
      s.p.forEach((h, r) => this.buffer.add('+I', { ...bounds, ...h.r, [RANK_COLUMN]: r + 1 }, s.end - 1));
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
