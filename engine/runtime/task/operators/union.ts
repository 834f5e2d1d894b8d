/**
 * `union`: merges its inputs unchanged. The runtime already merges the inputs' watermarks (minimum
 * over non-idle channels) and aligns barriers across them, so the operator only forwards.
 */
import type { RecordBatch } from '../../../contracts/operator.ts';
import { StreamOperatorBase } from './base/stream-operator-base.ts';

export class UnionOperator extends StreamOperatorBase {
  processBatch(batch: RecordBatch): Promise<void> {
    if (batch.rows.length) this.out.emit(batch);
    return Promise.resolve();
  }
}
