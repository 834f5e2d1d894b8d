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
 * Windows, their timers and firing order: `aligned-window-operator.ts`.
 */
import type { RecordBatch, Row } from '../../../../contracts/operator.ts';
import type { AlignedWindowAssigner } from '../../../../time/windows/assigners.ts';
import { AlignedWindowOperator, type WindowBounds } from './aligned-window-operator.ts';
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

export class WindowTopNOperator extends AlignedWindowOperator<WindowTop> {
  constructor(
    private readonly plan: TopNPlan,
    assigner: AlignedWindowAssigner,
  ) {
    super(`topn '${plan.nodeId}'`, WINDOW_TOPN_TABLE, assigner);
  }

  protected createEntry(start: number): WindowTop {
    return { s: start, rows: [] };
  }

  async processBatch(batch: RecordBatch): Promise<void> {
    if (batch.rows.length === 0) return;
    const { partition, order, limit } = this.plan;
    const opened = await this.openWindows(batch, (r) => partition.keyOf(r));
    if (opened === null) return;
    const { targets, entries } = opened;
    const changed = new Set(opened.created);
    for (const x of targets) {
      const held = entries.get(x.sk)!.rows;
      const row = batch.rows[x.i];
      const v = order.valuesOf(row);
      let pos = held.length;
      while (pos > 0 && order.compareValues(v, held[pos - 1].v) < 0) pos--;
      if (pos >= limit) continue;
      held.splice(pos, 0, { r: row, v });
      if (held.length > limit) held.length = limit;
      changed.add(x.sk);
    }
    await this.table.writeMany([...changed].map((k) => [k, entries.get(k)!] as const));
  }

  protected fire(e: WindowTop, bounds: WindowBounds, end: number): void {
    e.rows.forEach((h, r) => this.buffer.add('+I', { ...bounds, ...h.r, [RANK_COLUMN]: r + 1 }, end - 1));
  }
}
