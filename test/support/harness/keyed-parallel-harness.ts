/**
 * N subtasks of one keyed operator, fed as the runtime's hash partitioning would feed them: each
 * record goes to the subtask owning its key group (order kept per subtask), every watermark goes
 * to all. Snapshots of all subtasks can be restored into a different parallelism: each new subtask
 * receives every old keyed snapshot and keeps only its own key-group range (Flink's rescaling).
 */
import type { OutputPort, RecordBatch, Row, StreamOperator } from '../../../engine/contracts/operator.ts';
import { keyGroupOf, subtaskForKeyGroup } from '../../../engine/state/keygroups.ts';
import {
  OperatorTestHarness,
  type HarnessOptions,
  type HarnessSnapshot,
  type TimestampedRow,
} from './operator-test-harness.ts';

export interface KeyedParallelOptions extends Omit<HarnessOptions, 'subtask' | 'parallelism'> {
  parallelism: number;
  /** The key the runtime hashes (the operator's keyBy); null routes everything to subtask 0. */
  keyOf: ((row: Row) => string) | null;
}

export class KeyedParallelHarness {
  private constructor(
    readonly subtasks: OperatorTestHarness[],
    private readonly options: KeyedParallelOptions,
  ) {}

  static async open(
    createOperator: () => StreamOperator,
    options: KeyedParallelOptions,
    restoreFrom?: HarnessSnapshot[],
  ): Promise<KeyedParallelHarness> {
    const subtasks: OperatorTestHarness[] = [];
    for (let i = 0; i < options.parallelism; i++) {
      subtasks.push(await OperatorTestHarness.open(createOperator, { ...options, subtask: i }, restoreFrom));
    }
    return new KeyedParallelHarness(subtasks, options);
  }

  get maxParallelism(): number {
    return this.options.maxParallelism ?? 128;
  }

  subtaskOf(row: Row): number {
    const keyOf = this.options.keyOf;
    if (keyOf === null) return 0;
    return subtaskForKeyGroup(this.maxParallelism, this.subtasks.length, keyGroupOf(keyOf(row), this.maxParallelism));
  }

  async processBatch(batch: RecordBatch): Promise<void> {
    // Row kinds travel with their rows (a changelog keeps them across a keyBy, as the runtime's does).
    const kinds = batch.kinds;
    const parts = this.subtasks.map((): RecordBatch => ({
      rows: [],
      ts: [],
      ...(kinds !== undefined ? { kinds: [] } : {}),
    }));
    for (let i = 0; i < batch.rows.length; i++) {
      const p = parts[this.subtaskOf(batch.rows[i])];
      p.rows.push(batch.rows[i]);
      p.ts.push(batch.ts[i]);
      if (kinds !== undefined) p.kinds!.push(kinds[i]);
    }
    for (let s = 0; s < parts.length; s++) {
      if (parts[s].rows.length > 0) await this.subtasks[s].processBatch(parts[s]);
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

  /** All subtasks' output of a port, concatenated in subtask order. */
  output(port: OutputPort = 'out'): TimestampedRow[] {
    return this.subtasks.flatMap((s) => s.output(port));
  }

  lateRecordsDropped(): number {
    return this.subtasks.reduce((n, s) => n + s.lateRecordsDropped, 0);
  }

  async close(): Promise<void> {
    for (const s of this.subtasks) await s.close();
  }
}
