/**
 * `sink.blackhole`: every record is dropped as it arrives. It keeps no state and commits nothing, so
 * it takes part in checkpoints by acknowledging them, as Flink's BlackHoleSink does.
 */
import type { OperatorSnapshot, StreamOperator } from '../contracts/operator.ts';

export class BlackholeSinkOperator implements StreamOperator {
  async open(): Promise<void> {}
  async processBatch(): Promise<void> {}
  async processWatermark(): Promise<void> {}
  async snapshotState(): Promise<OperatorSnapshot> {
    return {};
  }
  async notifyCheckpointComplete(): Promise<void> {}
  async endInput(): Promise<void> {}
  async close(): Promise<void> {}
}
