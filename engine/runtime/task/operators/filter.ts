/** `filter`: keeps the rows for which `where` is TRUE (SQL three-valued logic: NULL drops the row). */
import type { RecordBatch, Row, RowKind } from '../../../contracts/operator.ts';
import { StreamOperatorBase } from './base/stream-operator-base.ts';
import { compileConditionDetailed } from '../../../sql/condition.ts';
import type { ColumnTypes } from '../../../sql/types.ts';

export class FilterOperator extends StreamOperatorBase {
  private readonly test: (row: Row) => boolean;
  /** `inputTypes`: the input's column types where the job tells them (graph/column-types.ts). */
  constructor(where: string, inputTypes?: ColumnTypes) {
    super();
    this.test = compileConditionDetailed(where, inputTypes).test;
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
}
