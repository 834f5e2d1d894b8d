/** `filter`: keeps the rows for which `where` is TRUE (SQL three-valued logic: NULL drops the row). */
import type { OperatorContext, OperatorOutput, OperatorSnapshot, RecordBatch, Row, StreamOperator } from '../../../contracts/operator.ts';
import { compileConditionDetailed } from '../../../sql/condition.ts';
import type { ColumnTypes } from '../../../sql/types.ts';

export class FilterOperator implements StreamOperator {
  private readonly test: (row: Row) => boolean;
  private out!: OperatorOutput;
  /** `inputTypes`: the input's column types where the job tells them (graph/column-types.ts). */
  constructor(where: string, inputTypes?: ColumnTypes) { this.test = compileConditionDetailed(where, inputTypes).test; }

  async open(_ctx: OperatorContext, out: OperatorOutput): Promise<void> { this.out = out; }

  processBatch(batch: RecordBatch): Promise<void> {
    const { rows, ts, sourceWatermarks: sw } = batch;
    const test = this.test;
    const keptRows: Row[] = [];
    const keptTs: number[] = [];
    const keptSw: number[] | null = sw ? [] : null;
    for (let i = 0; i < rows.length; i++) {
      if (test(rows[i])) {
        keptRows.push(rows[i]);
        keptTs.push(ts[i]);
        if (keptSw !== null) keptSw.push(sw![i]);
      }
    }
    if (keptRows.length) {
      this.out.emit(keptSw === null ? { rows: keptRows, ts: keptTs } : { rows: keptRows, ts: keptTs, sourceWatermarks: keptSw });
    }
    return Promise.resolve();
  }

  async processWatermark(watermark: number): Promise<void> { this.out.emitWatermark(watermark); }
  async snapshotState(): Promise<OperatorSnapshot> { return {}; }
  async notifyCheckpointComplete(): Promise<void> {}
  async endInput(): Promise<void> {}
  async close(): Promise<void> {}
}
