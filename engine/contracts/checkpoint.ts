/**
 * Checkpoint protocol types (docs/architecture.md: Chandy-Lamport / asynchronous barrier snapshots).
 *
 * Invariants:
 * - Checkpoint ids are strictly increasing within a job, across restarts: a run continues after
 *   both the restored id and the newest stored one (so restoring an older checkpoint never reuses
 *   a folder). A barrier with an id lower than one already seen is stale and dropped.
 * - Barrier n is injected at every source subtask together with that subtask's position Sn (file
 *   byte offset / generator sequence number) and follows every record read before Sn.
 * - An operator with several input channels forwards barrier n only after barrier n has arrived on
 *   every non-finished input channel (alignment; `at-least-once` mode does not block channels).
 *   Idle channels still carry barriers, so they never block alignment.
 * - Checkpoint n is complete when every subtask has acknowledged n; only then is its metadata
 *   written and `notifyCheckpointComplete(n)` sent, which commits sink transactions.
 * - After checkpoint n completes, no source is ever asked again for records before Sn.
 */
import type { KeyedStateSnapshot } from './keyed-state.ts';

export interface CheckpointBarrier {
  id: number;
  timestamp: number;
  kind: 'checkpoint' | 'savepoint';
}

/** State of one operator subtask in one checkpoint. */
export interface SubtaskStateSnapshot {
  /** Stable operator id (the job node id). */
  operatorId: string;
  subtask: number;
  parallelism: number;
  /** Keyed state (windows). */
  keyed?: KeyedStateSnapshot;
  /**
   * Operator state, JSON: source positions Sn and max timestamp seen, current watermark,
   * pending sink transactions, etc. Small by design.
   */
  operator?: unknown;
}

export interface SubtaskCheckpointStats {
  operatorId: string;
  subtask: number;
  /** ms from trigger until the barrier reached this subtask. */
  startDelay: number;
  alignmentDuration: number;
  syncDuration: number;
  asyncDuration: number;
  checkpointedBytes: number;
  fullBytes: number;
  /**
   * Memory backend: set on a subtask whose snapshot was refused for exceeding `memoryStateLimit`
   * (its bytes are then the refused snapshot's size, reported in the failed checkpoint's stats).
   */
  limitBytes?: number;
}

export interface CheckpointAck {
  checkpointId: number;
  states: SubtaskStateSnapshot[];
  stats: SubtaskCheckpointStats[];
}

export type CheckpointStatus = 'in_progress' | 'completed' | 'failed';

export interface CheckpointStats {
  id: number;
  kind: 'checkpoint' | 'savepoint';
  status: CheckpointStatus;
  triggerTime: number;
  /** ms from trigger to completion (or failure). */
  duration: number | null;
  acknowledged: number;
  total: number;
  checkpointedBytes: number;
  fullBytes: number;
  subtasks: SubtaskCheckpointStats[];
  failureReason?: string;
  /** Where it is stored (fs/rocksdb: folder path; memory: `memory://<job>/<id>`). */
  location?: string;
}

/** What `--resume`, `--from` and the restore dialog list. */
export interface RetainedCheckpoint {
  id: number;
  kind: 'checkpoint' | 'savepoint';
  path: string;
  time: number;
  bytes: number;
}

/** Checkpoint counts and latest entries, as Flink's checkpoint overview shows them. */
export interface CheckpointCounts {
  triggered: number;
  inProgress: number;
  completed: number;
  failed: number;
  restored: number;
}

export interface CheckpointStatsSummary {
  counts: CheckpointCounts;
  latestCompleted: CheckpointStats | null;
  latestFailed: CheckpointStats | null;
  latestSavepoint: CheckpointStats | null;
  latestRestore: { id: number; kind: 'checkpoint' | 'savepoint'; location: string; restoreTime: number } | null;
}
