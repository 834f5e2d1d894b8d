/**
 * Checkpoint storage, split by side as Flink splits it (CheckpointStorageCoordinatorView /
 * CheckpointStorageWorkerView):
 * - `CheckpointStorage` lives in the host next to the coordinator: it accepts acknowledged state,
 *   persists completed checkpoints (metadata last), lists, loads and disposes them.
 * - `CheckpointWorkerStorage` lives in the task process: state backends write their snapshot files
 *   through it while processing continues; records never travel to the host.
 *
 * Two kinds (docs/architecture.md, state backends): `memory` (the host keeps snapshots in its own memory; `memory` state
 * backend) and `filesystem` (`checkpointing.dir`; `fs` and `rocksdb` state backends).
 *
 * Paths in `KeyedStateSnapshot.files` are relative to the job's storage root
 * (`<checkpointing.dir>/<jobName>/`) when written. Checkpoints returned by `load`/`latest` carry
 * absolute paths instead, so a savepoint folder that was moved elsewhere still restores.
 */
import type { CheckpointBarrier, RetainedCheckpoint, SubtaskStateSnapshot } from './checkpoint.ts';

export type CheckpointKind = CheckpointBarrier['kind'];

/** One file of a keyed-state snapshot (the element type of `KeyedStateSnapshot.files`). */
export interface StateFileRef {
  path: string;
  bytes: number;
  sha256: string;
  shared: boolean;
}

export interface StateFileSink {
  /** Storage-relative path the file will have once committed. */
  readonly path: string;
  write(chunk: Uint8Array): Promise<void>;
  /** Makes the file durable and visible (temp + fsync + rename). */
  commit(): Promise<StateFileRef>;
  abort(): Promise<void>;
}

/** Task side. */
export interface CheckpointWorkerStorage {
  readonly kind: 'memory' | 'filesystem';
  /**
   * The runtime calls this when barrier n first reaches a task process, before any operator of that
   * process snapshots n, so backends know where n's files go and whether n is a savepoint.
   */
  beginCheckpoint(barrier: CheckpointBarrier): void;
  /** 'savepoint' only for ids announced as savepoints by `beginCheckpoint`. */
  kindOf(checkpointId: number): CheckpointKind;
  /**
   * A new state file. `shared` files (incremental RocksDB) go to `shared/` and may be referenced by
   * later checkpoints; others go to the checkpoint's own folder. Savepoint files are always
   * exclusive (savepoints are self-contained). `name` must be unique within its folder.
   */
  createStateFile(checkpointId: number, name: string, opts?: { shared?: boolean }): Promise<StateFileSink>;
  /** Convenience: one buffer as one state file. */
  writeStateFile(
    checkpointId: number,
    name: string,
    bytes: Uint8Array,
    opts?: { shared?: boolean },
  ): Promise<StateFileRef>;
  /** Reads a stored file (relative to the root, or absolute) as chunks. */
  readStateFile(path: string): AsyncIterable<Buffer>;
  /** Absolute path of a stored file, for error messages. */
  resolve(path: string): string;
}

/** What the host knows about one completed checkpoint or savepoint. */
export interface CompletedCheckpoint {
  id: number;
  kind: CheckpointKind;
  triggerTime: number;
  /** Completion time (epoch ms). */
  time: number;
  /** Folder path (filesystem) or `memory://<job>/<id>`. */
  location: string;
  /** Full state size in bytes (sum of all files it restores from, plus inline state). */
  bytes: number;
  states: SubtaskStateSnapshot[];
  /** What the job that wrote it looked like (absent in checkpoints of older Weir versions). */
  layout?: CheckpointLayout;
}

/**
 * The shape of the job a checkpoint was taken from, stored in its metadata so a restore can check
 * the new job against it before anything changes (engine/runtime/job/restore-compatibility.ts).
 */
export interface CheckpointLayout {
  maxParallelism: number;
  /**
   * Per node keeping state: its type and, field by field, the settings its state's layout depends
   * on (key columns, window spec, aggregates, join condition; a file sink's folder).
   */
  nodes: Record<string, { type: string; schema: Record<string, unknown> }>;
}

/** Everything the coordinator hands to the storage when all subtasks acknowledged. */
export interface PendingCheckpointData {
  id: number;
  kind: CheckpointKind;
  triggerTime: number;
  /** The barrier's timestamp (names savepoint folders `sp-<id>-<timestamp>`). */
  barrierTimestamp: number;
  states: SubtaskStateSnapshot[];
}

/** A subtask's state was refused (memory limit); the checkpoint fails with this message. */
export class CheckpointDeclinedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CheckpointDeclinedError';
  }
}

/** Nothing to resume from, or a checkpoint that cannot be read: the message says why and where. */
export class CheckpointRestoreError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CheckpointRestoreError';
  }
}

/** The checkpoint folder holds what Weir did not write (or another job's files): nothing is touched. */
export class CheckpointStorageRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CheckpointStorageRefusedError';
  }
}

/** Host side. */
export interface CheckpointStorage {
  readonly kind: 'memory' | 'filesystem';
  /** Prepare: remove incomplete checkpoints and orphaned files, rebuild shared-file references. */
  open(): Promise<void>;
  /** Checks one subtask's state as its acknowledgement arrives; throws CheckpointDeclinedError. */
  checkSubtaskState(state: SubtaskStateSnapshot): void;
  /** Persists a fully acknowledged checkpoint; the metadata is written last. */
  store(data: PendingCheckpointData): Promise<CompletedCheckpoint>;
  /** Deletes a subsumed checkpoint; shared files survive while a retained checkpoint uses them. */
  discard(checkpoint: CompletedCheckpoint): Promise<void>;
  /** Deletes what a failed checkpoint left behind (its folder; shared files nobody references). */
  discardFailed(data: PendingCheckpointData): Promise<void>;
  /** Completed checkpoints and savepoints present now, newest first. */
  listRetained(): Promise<RetainedCheckpoint[]>;
  /**
   * Completed checkpoints and savepoints with their state descriptions, newest first, read without
   * verifying checksums (the coordinator adopts them after a restore to keep retention going).
   */
  listCompleted(): Promise<CompletedCheckpoint[]>;
  /** The newest completed checkpoint or savepoint (by id), or null when there is none. */
  latest(): Promise<CompletedCheckpoint | null>;
  /** For `--resume`: like `latest` but a missing checkpoint is an error explaining why. */
  resumeLatest(): Promise<CompletedCheckpoint>;
  /** For `--from PATH`: a checkpoint or savepoint folder (or its `_metadata`), checksums verified. */
  load(path: string): Promise<CompletedCheckpoint>;
}
