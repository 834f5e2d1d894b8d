/**
 * The default lifecycle of a StreamOperator (Flink's AbstractStreamOperator), for operators to
 * extend instead of spelling it out each time. Rules (those of contracts/operator.ts, which every
 * subclass keeps):
 * - `open` runs once, before any data: it keeps the context and output for the subclass, then
 *   calls `setup`. The runtime awaits every call before the next, so no method runs concurrently.
 * - Without an override the operator holds no state: `processWatermark` forwards the watermark
 *   (the runtime has already merged the input channels' and drops regressions), `snapshotState`
 *   contributes nothing, and `notifyCheckpointComplete`, `endInput` and `close` have nothing to do:
 *   an operator with side effects outside keyed state (a 2PC sink) overrides them.
 * Keyed operators extend KeyedOperator (keyed-operator.ts), which adds the watermark as operator
 * state, event-time timers and the keyed-state snapshot.
 */
import type {
  OperatorContext,
  OperatorOutput,
  OperatorSnapshot,
  RecordBatch,
  StreamOperator,
} from '../../../../contracts/operator.ts';

export abstract class StreamOperatorBase implements StreamOperator {
  protected ctx!: OperatorContext;
  protected out!: OperatorOutput;

  async open(ctx: OperatorContext, out: OperatorOutput, restored?: { operator?: unknown[] }): Promise<void> {
    this.ctx = ctx;
    this.out = out;
    await this.setup(restored);
  }

  /** What the operator builds once its context is known (`restored`: its operator state, if any). */
  protected async setup(_restored: { operator?: unknown[] } | undefined): Promise<void> {}

  abstract processBatch(batch: RecordBatch, input: number): Promise<void>;

  async processWatermark(watermark: number): Promise<void> {
    this.out.emitWatermark(watermark);
  }

  async snapshotState(_checkpointId: number): Promise<OperatorSnapshot> {
    return {};
  }

  async notifyCheckpointComplete(_checkpointId: number): Promise<void> {}

  async endInput(): Promise<void> {}

  async close(): Promise<void> {}
}
