/** `map`: projects every row through the `select` list; the event time travels beside the row. */
import type {
  OperatorContext,
  OperatorOutput,
  OperatorSnapshot,
  RecordBatch,
  Row,
  StreamOperator,
} from '../../../contracts/operator.ts';
import { compileProjectionDetailed } from '../../../sql/projection.ts';
import type { ColumnTypes } from '../../../sql/types.ts';

export class MapOperator implements StreamOperator {
  private readonly project: (row: Row) => Row;
  private out!: OperatorOutput;
  /** `inputTypes`: the input's column types where the job tells them (graph/column-types.ts). */
  constructor(select: string, inputTypes?: ColumnTypes) {
    this.project = compileProjectionDetailed(select, inputTypes).project;
  }

  async open(_ctx: OperatorContext, out: OperatorOutput): Promise<void> {
    this.out = out;
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
