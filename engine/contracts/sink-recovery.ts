/**
 * How a sink with two-phase-commit side effects puts its output right before the tasks of a new
 * attempt start (Flink's TwoPhaseCommitSinkFunction#initializeState: commit what the restored
 * snapshot lists as pending, abort every other transaction). A connector registers one hook per
 * node type (connectors/registry.ts); the job master calls it with the operator states the restored
 * checkpoint holds for that node and never reads those states itself.
 *
 * Rules a hook keeps:
 * - It runs before any task process of the attempt exists, so nothing writes the output meanwhile.
 * - It is idempotent: a host killed during recovery runs it again with the same states.
 * - On a fresh start (`states` empty) it aborts every leftover transaction: none was committed.
 */
import type { JobNode } from '../graph/types.ts';

export interface SinkRecoveryContext {
  node: JobNode;
  /** The folder that relative paths in the job resolve against (the job file's folder). */
  baseDir: string;
  /** This node's own operator state per restored subtask (unwrapped), empty on a fresh start. */
  states: readonly unknown[];
}

export interface SinkRecovery {
  recover(ctx: SinkRecoveryContext): void;
  /**
   * The run lineage the restored states name, if the sink puts it into committed file names: a
   * restored run keeps its lineage so a commit repeated after a restore finds the same final name.
   */
  lineage?(states: readonly unknown[]): string | null;
}
