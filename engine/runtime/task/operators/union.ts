/**
 * `union`: merges its inputs unchanged. The runtime already merges the inputs' watermarks (minimum
 * over non-idle channels) and aligns barriers across them, so the operator only forwards.
 */
import type {
  OperatorContext,
  OperatorOutput,
  OperatorSnapshot,
  RecordBatch,
  StreamOperator,
} from '../../../contracts/operator.ts';

export class UnionOperator implements StreamOperator {
  private out!: OperatorOutput;
  async open(_ctx: OperatorContext, out: OperatorOutput): Promise<void> {
    this.out = out;
  }
  processBatch(batch: RecordBatch): Promise<void> {
    if (batch.rows.length) this.out.emit(batch);
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
