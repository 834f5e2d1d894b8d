/**
 * `join.interval`: Flink's interval join. A left row L and a right row R with equal keys join
 * when `L.ts BETWEEN R.ts + lower AND R.ts + upper`; the result's event time is the larger of the
 * two. Input 0 is `left`, input 1 is `right` (the planner maps toPort to the input index).
 *
 * Lateness, as the window operator judges it (see docs/architecture.md): a row is late, dropped
 * and counted, when its time is at or below max(operator watermark, its source's watermark when
 * it was read). State retirement: a left row can only meet right rows with R.ts <= L.ts - lower,
 * a right row only left rows with L.ts <= R.ts + upper; every row that is not late is above the
 * watermark w, so a left row is dropped once L.ts - lower <= w and a right row once
 * R.ts + upper <= w. Together these make the output the same in every run: every pair of on-time
 * rows that satisfies the condition is emitted exactly once, when the second of them arrives, and
 * nothing else is. Output is append-only; its rows are never behind the watermark (each is emitted
 * on the arrival of an on-time row, at or after that row's time), so the watermark passes through.
 *
 * Keyed state, table `join`: `gggg:L<key>` / `gggg:R<key>` -> the buffered rows of one side and
 * key, `[{ r: row, t: ts }]`. The timers (KeyedOperator's in-memory queue, rebuilt from a scan on
 * open) say which entries may hold rows to retire. Operator state: the input watermark.
 */
import type { RecordBatch, Row } from '../../../../contracts/operator.ts';
import type { KeyedStateBackend, StateTable } from '../../../../contracts/keyed-state.ts';
import type { KeyBy } from '../../../../sql/index.ts';
import type { CompiledJoinSelect } from '../../../../sql/join-select.ts';
import { GROUP_PREFIX_WIDTH } from '../window/state-keys.ts';
import { KeyedOperator } from '../base/keyed-operator.ts';
import { ChangelogBuffer, distinctKeys, readJoinSides } from './keyed-support.ts';

export const JOIN_TABLE = 'join';

export interface IntervalJoinPlan {
  nodeId: string;
  leftKey: KeyBy;
  rightKey: KeyBy;
  lower: number;
  upper: number;
  select: CompiledJoinSelect;
}

interface Buffered {
  r: Row;
  t: number;
}

export class IntervalJoinOperator extends KeyedOperator {
  private table!: StateTable<Buffered[]>;
  private readonly buffer = new ChangelogBuffer();

  constructor(private readonly plan: IntervalJoinPlan) {
    super(`join.interval '${plan.nodeId}'`);
  }

  protected async openState(state: KeyedStateBackend): Promise<void> {
    this.table = state.table<Buffered[]>(JOIN_TABLE);
    for await (const [k, rows] of this.table.scan()) {
      const left = k[GROUP_PREFIX_WIDTH] === 'L';
      for (const b of rows) this.timers.push(this.retireAt(left, b.t), k);
    }
  }

  /** The watermark at which a buffered row can no longer meet an on-time row of the other side. */
  private retireAt(left: boolean, t: number): number {
    return left ? t - this.plan.lower : t + this.plan.upper;
  }

  async processBatch(batch: RecordBatch, input: number): Promise<void> {
    const { rows, ts, sourceWatermarks: sw } = batch;
    if (rows.length === 0) return;
    const left = input === 0;
    const { lower, upper, select } = this.plan;
    const key = left ? this.plan.leftKey : this.plan.rightKey;
    let late = 0;
    const { keys, slot } = distinctKeys(rows.length, (i) => {
      const t = ts[i];
      if (Number.isNaN(t)) throw this.noEventTime();
      if (t > this.latenessWatermark(sw, i)) return key.keyOf(rows[i]);
      late++;
      return null;
    });
    if (late > 0) this.ctx.metrics.lateRecords(late);
    if (keys.length === 0) return;
    const { ownKeys, mine, theirs } = await readJoinSides(this.ctx, this.what, this.table, keys, left);
    for (let i = 0; i < rows.length; i++) {
      const j = slot[i];
      if (j < 0) continue;
      const t = ts[i];
      const row = rows[i];
      // Left row at t meets right rows with t - upper <= R.ts <= t - lower; right row at t meets
      // left rows with t + lower <= L.ts <= t + upper.
      const lo = left ? t - upper : t + lower;
      const hi = left ? t - lower : t + upper;
      for (const c of theirs[j]) {
        if (c.t < lo || c.t > hi) continue;
        const out = left ? select.project(row, c.r) : select.project(c.r, row);
        this.buffer.add('+I', out, t > c.t ? t : c.t);
      }
      const retire = this.retireAt(left, t);
      if (retire > this.watermark) {
        mine[j].push({ r: row, t });
        this.timers.push(retire, ownKeys[j]);
      }
    }
    await this.table.writeMany(ownKeys.map((k, j) => [k, mine[j].length > 0 ? mine[j] : undefined] as const));
    this.buffer.flush(this.out, false);
  }

  /** Drops the buffered rows that can no longer meet an on-time row of the other side. */
  protected override async onTimers(due: string[], watermark: number): Promise<void> {
    const entries = await this.table.getMany(due);
    const writes: Array<readonly [string, Buffered[] | undefined]> = [];
    due.forEach((k, i) => {
      const rows = entries[i];
      if (rows === undefined) return;
      const left = k[GROUP_PREFIX_WIDTH] === 'L';
      const keep = rows.filter((b) => this.retireAt(left, b.t) > watermark);
      if (keep.length !== rows.length) writes.push([k, keep.length > 0 ? keep : undefined]);
    });
    if (writes.length) await this.table.writeMany(writes);
  }
}
