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
import type { RecordBatch, Row } from '../../../../contracts/operator.ts';
import type { KeyedStateBackend } from '../../../../contracts/keyed-state.ts';
import type { SessionWindowAssigner } from '../../../../time/windows/assigners.ts';
import { isoTime } from '../../../../time/windows/index.ts';
import { KeyedOperator } from '../base/keyed-operator.ts';
import { ChangelogBuffer } from './keyed-support.ts';
import { KeyedSessions, type KeySessions, type SessionPayload, type SessionRecord } from './keyed-sessions.ts';
import { RANK_COLUMN, type TopNPlan } from './topn-operator.ts';
import { WINDOW_TOPN_TABLE } from './window-topn-operator.ts';

interface Held {
  r: Row;
  v: unknown[];
  q: number;
}

export class SessionTopNOperator extends KeyedOperator {
  private sessions!: KeyedSessions<Held[], Row>;
  private readonly buffer = new ChangelogBuffer();
  private readonly payload: SessionPayload<Held[], Row>;

  constructor(
    private readonly plan: TopNPlan,
    private readonly assigner: SessionWindowAssigner,
  ) {
    super(`topn '${plan.nodeId}'`);
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

  protected async openState(state: KeyedStateBackend): Promise<void> {
    const table = state.table<KeySessions<Held[]>>(WINDOW_TOPN_TABLE);
    this.sessions = new KeyedSessions(table, this.assigner.gap, this.payload, this.what, this.timers);
    await this.sessions.open();
  }

  async processBatch(batch: RecordBatch): Promise<void> {
    const { rows, ts, sourceWatermarks: sw } = batch;
    if (rows.length === 0) return;
    const partition = this.plan.partition;
    const records: Array<SessionRecord<Row>> = new Array(rows.length);
    for (let i = 0; i < rows.length; i++) {
      if (Number.isNaN(ts[i])) throw this.noEventTime();
      const w = this.latenessWatermark(sw, i);
      records[i] = { key: partition.keyOf(rows[i]), ts: ts[i], watermark: w, item: rows[i] };
    }
    const late = await this.sessions.add(this.ctx, records);
    if (late > 0) this.ctx.metrics.lateRecords(late);
  }

  /** Emits the top rows of every session that ends at or before the watermark, and drops it. */
  protected override async onTimers(due: string[], watermark: number): Promise<void> {
    for (const s of await this.sessions.fire(due, watermark)) {
      const bounds = { window_start: isoTime(s.start), window_end: isoTime(s.end) };
      s.p.forEach((h, r) => this.buffer.add('+I', { ...bounds, ...h.r, [RANK_COLUMN]: r + 1 }, s.end - 1));
    }
    this.buffer.flush(this.out, false);
  }
}
