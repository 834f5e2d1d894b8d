/** `filter`: keeps the rows for which `where` is TRUE (SQL three-valued logic: NULL drops the row). */
import type {
  OperatorContext,
  OperatorOutput,
  OperatorSnapshot,
  RecordBatch,
  Row,
  RowKind,
  StreamOperator,
} from '../../../contracts/operator.ts';
import { compileConditionDetailed } from '../../../sql/condition.ts';
import type { ColumnTypes } from '../../../sql/types.ts';

export class FilterOperator implements StreamOperator {
  private readonly test: (row: Row) => boolean;
  private out!: OperatorOutput;
  /** `inputTypes`: the input's column types where the job tells them (graph/column-types.ts). */
  constructor(where: string, inputTypes?: ColumnTypes) {
    this.test = compileConditionDetailed(where, inputTypes).test;
  }

  async open(_ctx: OperatorContext, out: OperatorOutput): Promise<void> {
    this.out = out;
  }

  processBatch(batch: RecordBatch): Promise<void> {
    const { rows, ts, sourceWatermarks: sw, kinds } = batch;
    const test = this.test;
    const keptRows: Row[] = [];
    const keptTs: number[] = [];
    const keptSw: number[] | null = sw ? [] : null;
    // Changelog input: a retraction passes when its row passes, so the downstream table stays right.
    const keptKinds: RowKind[] | null = kinds ? [] : null;
    for (let i = 0; i < rows.length; i++) {
      if (test(rows[i])) {
        keptRows.push(rows[i]);
        keptTs.push(ts[i]);
        if (keptSw !== null) keptSw.push(sw![i]);
        if (keptKinds !== null) keptKinds.push(kinds![i]);
      }
    }
    if (keptRows.length) {
      const out: RecordBatch =
        keptSw === null ? { rows: keptRows, ts: keptTs } : { rows: keptRows, ts: keptTs, sourceWatermarks: keptSw };
      if (keptKinds !== null) out.kinds = keptKinds;
      this.out.emit(out);
    }
    return Promise.resolve();
  }

  async processWatermark(watermark: number): Promise<void> {
    this.out.emitWatermark(watermark);
  }
  async snapshotState(): Promise<OperatorSnapshot> {
    return {};
  }
  async notifyCheckpointComplete(): Promise<void> {}
  async endInput(): Promise<void> {}
  async close(): Promise<void> {}
}
