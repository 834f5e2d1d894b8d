/**
 * The operator contract of the task runtime. Every node of a job becomes one `StreamOperator` per
 * subtask; the runtime feeds it batches and control signals in channel order and never calls two
 * methods of one operator concurrently (each call is awaited before the next).
 *
 * Control signals travel in-band with the data (Arroyo's `SignalMessage`): Watermark, Barrier,
 * EndOfInput. The runtime, not the operator, handles them per input channel: it merges channel
 * watermarks (minimum over non-idle channels, never going back), aligns barriers, and only then calls
 * `processWatermark` / `snapshotState` on the operator.
 */
import type { KeyedStateBackend, KeyedStateSnapshot, KeyGroupRange } from './keyed-state.ts';
import type { OutputPort } from '../graph/ports.ts';

export type Row = Record<string, unknown>;

/**
 * Records move in batches. `ts[i]` is the event time of `rows[i]` in epoch ms (NaN when the stream
 * has no event time), carried beside the row as Flink's StreamRecord carries its timestamp, so a
 * `map` that drops the time column does not lose it.
 *
 * `sourceWatermarks[i]` (when present) is the watermark that `rows[i]`'s source subtask had just
 * before reading it: the maximum event time it had read before, minus the out-of-orderness bound,
 * minus 1. Windows judge lateness against max(their watermark, this value). It depends only on the
 * order of the source's split, never on batch boundaries, rate limits or how channels interleave
 * downstream, so the same records are late in every run, with or without failures and restores.
 * (The operator's own watermark can never exceed it for an active channel: watermarks travel behind
 * the records they follow.) Operators that pass rows through keep it aligned with `rows`.
 */
export interface RecordBatch {
  rows: Row[];
  ts: number[];
  sourceWatermarks?: number[];
  /**
   * Changelog edges only (see graph/changelog.ts): `kinds[i]` is the row kind of `rows[i]`.
   * Absent means every row is an insert (+I): append-only edges carry no array and pay nothing.
   * Operators that pass rows through keep it aligned with `rows`, as `sourceWatermarks`.
   */
  kinds?: RowKind[];
}

/** Flink's RowKind: insert, update-before (retracts the old row), update-after, delete. */
export type RowKind = '+I' | '-U' | '+U' | '-D';
export const ROW_KINDS: readonly RowKind[] = ['+I', '-U', '+U', '-D'];

/** `out`, a window's `late`, a file source's `bad`, a Nexmark source's `person` / `auction` / `bid`. */
export type { OutputPort };

export interface OperatorOutput {
  /** Emit a batch downstream on a port. The runtime takes ownership of the arrays. */
  emit(batch: RecordBatch, port?: OutputPort): void;
  /** Emit this operator's output watermark (must not decrease; the runtime drops regressions). */
  emitWatermark(watermark: number): void;
}

export interface OperatorMetricsSink {
  lateRecords(n: number): void;
  badRecords(n: number): void;
}

export interface OperatorContext {
  nodeId: string;
  subtask: number;
  parallelism: number;
  maxParallelism: number;
  /** Key groups this subtask owns (keyed operators). */
  keyGroupRange: KeyGroupRange;
  /** Keyed state for operators behind a keyBy (windows); null for stateless operators. */
  state: KeyedStateBackend | null;
  metrics: OperatorMetricsSink;
  /** Resolves a path from the job against the job file's folder. */
  resolvePath(p: string): string;
}

/** What an operator contributes to checkpoint n (the synchronous part of its snapshot). */
export interface OperatorSnapshot {
  /** Small JSON operator state: positions, watermarks, pending transactions... */
  operator?: unknown;
  /** Asynchronous part of the keyed-state snapshot (from `KeyedStateBackend.snapshot`). */
  keyed?: () => Promise<KeyedStateSnapshot>;
}

export interface StreamOperator {
  /** Called once before any data; `restored` holds this subtask's operator state from a checkpoint. */
  open(ctx: OperatorContext, out: OperatorOutput, restored?: { operator?: unknown[] }): Promise<void>;
  /** `input` is the index of the logical input (0 for single-input operators; unions have several). */
  processBatch(batch: RecordBatch, input: number): Promise<void>;
  /** The merged input watermark advanced to `watermark` (+Infinity at end of input). */
  processWatermark(watermark: number): Promise<void>;
  /** Barrier n is aligned at this operator: capture state now (sync), before any later record. */
  snapshotState(checkpointId: number): Promise<OperatorSnapshot>;
  /** Checkpoint n is complete everywhere: commit side effects (2PC sinks). */
  notifyCheckpointComplete(checkpointId: number): Promise<void>;
  /** Every input has ended (after the final +Infinity watermark). */
  endInput(): Promise<void>;
  close(): Promise<void>;
}
