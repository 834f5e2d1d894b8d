/** `map`: projects every row through the `select` list; the event time travels beside the row. */
import type { RecordBatch, Row } from '../../../contracts/operator.ts';
import { StreamOperatorBase } from './base/stream-operator-base.ts';
import { compileProjectionDetailed } from '../../../sql/projection.ts';
import type { ColumnTypes } from '../../../sql/types.ts';

export class MapOperator extends StreamOperatorBase {
  private readonly project: (row: Row) => Row;
  /** `inputTypes`: the input's column types where the job tells them (graph/column-types.ts). */
  constructor(select: string, inputTypes?: ColumnTypes) {
    super();
    this.project = compileProjectionDetailed(select, inputTypes).project;
  }

  processBatch(batch: RecordBatch): Promise<void> {
    const { rows } = batch;
    const p = this.project;
    const outRows = new Array<Row>(rows.length);
    for (let i = 0; i < rows.length; i++) outRows[i] = p(rows[i]);
    if (outRows.length) {
      const out: RecordBatch = { rows: outRows, ts: batch.ts, sourceWatermarks: batch.sourceWatermarks };
      if (batch.kinds) out.kinds = batch.kinds; // a changelog stays one: row kinds pass through
      this.out.emit(out);
    }
    return Promise.resolve();
  }
}
