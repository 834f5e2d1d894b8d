/**
 * `topn`: the first `limit` rows per partition in `orderBy` order (Flink's AppendOnlyTopNFunction
 * with the row number in the output). Each row carries `rownum`, its rank 1..limit. A new row that
 * enters the top N at rank r shifts every row from r down: the operator emits, for each rank that
 * changed, `-U` (the row that held it) and `+U` (the row that holds it now), and `+I` for a rank
 * that was empty. The row pushed past `limit` simply stops holding a rank. Folding the changelog
 * by (partition, rownum) gives the current top N.
 *
 * `limit: 1` ordered by time is deduplication: `ts ASC` keeps the first row per partition (an
 * out-of-order earlier row replaces it), `ts DESC` keeps the last.
 *
 * Ties: a row ranks after the rows already held that compare equal to it (arrival order).
 * Input is append-only (validation refuses a changelog), so a row outside the top N can never
 * re-enter it and is not kept. Keyed state, table `topn`: per partition the held rows, sorted,
 * with their sort values: `{ rows: [{ r, v, t }] }`. Operator state: the input watermark.
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
import type { CompiledOrderBy } from '../../../../sql/order-by.ts';
import { batchStateKeys, ChangelogBuffer, encodeWm, restoredWatermark, type WatermarkState } from './keyed-support.ts';

export const TOPN_TABLE = 'topn';
export const RANK_COLUMN = 'rownum';

export interface TopNPlan {
  nodeId: string;
  partition: KeyBy;
  order: CompiledOrderBy;
  limit: number;
}

interface Held {
  r: Row;
  v: unknown[];
  t: number;
}
interface TopNEntry {
  rows: Held[];
}

export class TopNOperator implements StreamOperator {
  private ctx!: OperatorContext;
  private out!: OperatorOutput;
  private table!: StateTable<TopNEntry>;
  private watermark = -Infinity;
  private readonly buffer = new ChangelogBuffer();

  constructor(private readonly plan: TopNPlan) {}

  async open(ctx: OperatorContext, out: OperatorOutput, restored?: { operator?: unknown[] }): Promise<void> {
    if (ctx.state === null)
      throw new Error(`topn '${this.plan.nodeId}' needs keyed state, but the runtime gave it none`);
    this.ctx = ctx;
    this.out = out;
    this.table = ctx.state.table<TopNEntry>(TOPN_TABLE);
    this.watermark = restoredWatermark(restored?.operator);
  }

  async processBatch(batch: RecordBatch): Promise<void> {
    const { rows, ts } = batch;
    if (rows.length === 0) return;
    const { partition, order, limit } = this.plan;
    const what = `topn '${this.plan.nodeId}'`;
    const { distinct, slot } = batchStateKeys(this.ctx, what, rows, (r) => partition.keyOf(r));
    const entries = await this.table.getMany(distinct);
    const changed = new Array<boolean>(distinct.length).fill(false);
    for (let i = 0; i < rows.length; i++) {
      const j = slot[i];
      const held = (entries[j] ??= { rows: [] }).rows;
      const v = order.valuesOf(rows[i]);
      // First rank whose row sorts strictly after the new one (equal rows keep arrival order).
      let pos = held.length;
      while (pos > 0 && order.compareValues(v, held[pos - 1].v) < 0) pos--;
      if (pos >= limit) continue;
      const before = held.slice(pos);
      held.splice(pos, 0, { r: rows[i], v, t: ts[i] });
      if (held.length > limit) held.length = limit;
      for (let r = pos; r < held.length; r++) {
        const prev = before[r - pos];
        if (prev !== undefined) {
          this.buffer.add('-U', withRank(prev.r, r + 1), ts[i]);
          this.buffer.add('+U', withRank(held[r].r, r + 1), ts[i]);
        } else {
          this.buffer.add('+I', withRank(held[r].r, r + 1), ts[i]);
        }
      }
      changed[j] = true;
    }
    const writes: Array<readonly [string, TopNEntry]> = [];
    distinct.forEach((k, j) => {
      if (changed[j]) writes.push([k, entries[j]!]);
    });
    if (writes.length) await this.table.writeMany(writes);
    this.buffer.flush(this.out, true);
  }

  async processWatermark(watermark: number): Promise<void> {
    if (!(watermark > this.watermark)) return;
    this.watermark = watermark;
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

function withRank(row: Row, rank: number): Row {
  return { ...row, [RANK_COLUMN]: rank };
}
