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
import type { RecordBatch, Row } from '../../../../contracts/operator.ts';
import type { KeyedStateBackend } from '../../../../contracts/keyed-state.ts';
import type { KeyBy } from '../../../../sql/index.ts';
import type { CompiledJoinSelect } from '../../../../sql/join-select.ts';
import type { SessionWindowAssigner } from '../../../../time/windows/assigners.ts';
import { isoTime } from '../../../../time/windows/index.ts';
import { KeyedOperator } from '../base/keyed-operator.ts';
import { ChangelogBuffer } from './keyed-support.ts';
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

export class SessionWindowJoinOperator extends KeyedOperator {
  private sessions!: KeyedSessions<Sides, Item>;
  private readonly buffer = new ChangelogBuffer();

  constructor(private readonly plan: SessionJoinPlan) {
    super(`join.window '${plan.nodeId}'`);
  }

  protected async openState(state: KeyedStateBackend): Promise<void> {
    const table = state.table<KeySessions<Sides>>(WINDOW_JOIN_TABLE);
    this.sessions = new KeyedSessions(table, this.plan.assigner.gap, SIDES, this.what, this.timers);
    await this.sessions.open();
  }

  async processBatch(batch: RecordBatch, input: number): Promise<void> {
    const { rows, ts, sourceWatermarks: sw } = batch;
    if (rows.length === 0) return;
    const left = input === 0;
    const key = left ? this.plan.leftKey : this.plan.rightKey;
    const records: Array<SessionRecord<Item>> = new Array(rows.length);
    for (let i = 0; i < rows.length; i++) {
      if (Number.isNaN(ts[i])) throw this.noEventTime();
      const w = this.latenessWatermark(sw, i);
      records[i] = { key: key.keyOf(rows[i]), ts: ts[i], watermark: w, item: { left, r: rows[i] } };
    }
    const late = await this.sessions.add(this.ctx, records);
    if (late > 0) this.ctx.metrics.lateRecords(late);
  }

  /** Emits the pairs of every session that ends at or before the watermark, and drops it. */
  protected override async onTimers(due: string[], watermark: number): Promise<void> {
    const select = this.plan.select;
    for (const s of await this.sessions.fire(due, watermark)) {
      const bounds = { window_start: isoTime(s.start), window_end: isoTime(s.end) };
      for (const l of s.p.L) for (const r of s.p.R) this.buffer.add('+I', select.project(l.r, r.r, bounds), s.end - 1);
    }
    this.buffer.flush(this.out, false);
  }
}
