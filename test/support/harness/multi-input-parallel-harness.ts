/**
 * N subtasks of one keyed operator with one or more inputs, fed as the runtime's hash partitioning
 * feeds them: a record of input i goes to the subtask owning the key group of `keyOf[i](row)` (a
 * join keys each input by its own key), order kept per subtask; every watermark goes to all.
 * Snapshots restore into a different parallelism as in KeyedParallelHarness (Flink's rescaling).
 * Batches keep their `sourceWatermarks` aligned with the rows they route.
 */
import type { OutputPort, RecordBatch, Row, RowKind, StreamOperator } from '../../../engine/contracts/operator.ts';
import { keyGroupOf, subtaskForKeyGroup } from '../../../engine/state/keygroups.ts';
import { OperatorTestHarness, type HarnessOptions, type HarnessSnapshot } from './operator-test-harness.ts';

export interface MultiInputParallelOptions extends Omit<HarnessOptions, 'subtask' | 'parallelism'> {
  parallelism: number;
  /** The routing key of each input (index = input number). */
  keyOf: ReadonlyArray<(row: Row) => string>;
}

export class MultiInputParallelHarness {
  private constructor(
    readonly subtasks: OperatorTestHarness[],
    private readonly options: MultiInputParallelOptions,
  ) {}

  static async open(
    createOperator: () => StreamOperator,
    options: MultiInputParallelOptions,
    restoreFrom?: HarnessSnapshot[],
  ): Promise<MultiInputParallelHarness> {
    const subtasks: OperatorTestHarness[] = [];
    for (let i = 0; i < options.parallelism; i++) {
      subtasks.push(await OperatorTestHarness.open(createOperator, { ...options, subtask: i }, restoreFrom));
    }
    return new MultiInputParallelHarness(subtasks, options);
  }

  private get maxParallelism(): number {
    return this.options.maxParallelism ?? 128;
  }

  async processBatch(batch: RecordBatch, input = 0): Promise<void> {
    const keyOf = this.options.keyOf[input];
    const parts = this.subtasks.map((): RecordBatch =>
      batch.sourceWatermarks ? { rows: [], ts: [], sourceWatermarks: [] } : { rows: [], ts: [] },
    );
    for (let i = 0; i < batch.rows.length; i++) {
      const s = subtaskForKeyGroup(
        this.maxParallelism,
        this.subtasks.length,
        keyGroupOf(keyOf(batch.rows[i]), this.maxParallelism),
      );
      parts[s].rows.push(batch.rows[i]);
      parts[s].ts.push(batch.ts[i]);
      parts[s].sourceWatermarks?.push(batch.sourceWatermarks![i]);
    }
    for (let s = 0; s < parts.length; s++) {
      if (parts[s].rows.length > 0) await this.subtasks[s].processBatch(parts[s], input);
    }
  }

  async processWatermark(watermark: number): Promise<void> {
    for (const s of this.subtasks) await s.processWatermark(watermark);
  }

  async endInput(): Promise<void> {
    for (const s of this.subtasks) await s.endInput();
  }

  async snapshot(checkpointId: number): Promise<HarnessSnapshot[]> {
    const out: HarnessSnapshot[] = [];
    for (const s of this.subtasks) out.push(await s.snapshot(checkpointId));
    return out;
  }

  /** Every subtask's changes, concatenated in subtask order. */
  changelog(port: OutputPort = 'out'): Array<{ kind: RowKind; row: Row; ts: number }> {
    return this.subtasks.flatMap((s) => s.changelog(port));
  }

  lateRecordsDropped(): number {
    return this.subtasks.reduce((n, s) => n + s.lateRecordsDropped, 0);
  }

  async close(): Promise<void> {
    for (const s of this.subtasks) await s.close();
  }
}
