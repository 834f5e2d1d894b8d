/**
 * The keyed-state interface that operators write through. Three backends plug in under it
 * (docs/architecture.md, state backends): `memory` and `fs` keep working state on the task's heap (HeapStateBackend),
 * `rocksdb` keeps it in RocksDB on local disk. They differ only in where working state lives and
 * where snapshots go; operators never know which one they run on, and all three give identical
 * job results.
 *
 * Rules:
 * - Always async, and batched: one promise per batch of records, never one per record.
 * - Every key is prefixed with its key group (see `keyGroupOf`), so a snapshot can be split by
 *   key-group range on restore with a different parallelism.
 * - Values are JSON-serializable plain data. Keys are strings.
 * - A value returned by `getMany` may be changed in place by the operator (and then written back
 *   with `writeMany`): a snapshot never shares objects with working state (heap backends copy, in
 *   the synchronous part of `snapshot`, every value written or handed out since the previous
 *   snapshot; RocksDB stores bytes). The window operator relies on this. A value changed in place
 *   must therefore be written back before the next snapshot to be in it.
 */
import type { StateBackendKind } from '../graph/types.ts';

export interface KeyGroupRange {
  start: number;
  end: number; /* inclusive */
}

/** One named table of one operator subtask (Flink: a registered MapState). */
export interface StateTable<V = unknown> {
  readonly name: string;
  /** Values for `keys` in order; `undefined` where absent. */
  getMany(keys: readonly string[]): Promise<Array<V | undefined>>;
  /** Puts (value) and deletes (`undefined`), applied in order, atomically with respect to snapshots. */
  writeMany(entries: ReadonlyArray<readonly [string, V | undefined]>): Promise<void>;
  /** Entries in ascending key order (UTF-16 code unit order), optionally bounded: gte <= key < lt. */
  scan(range?: { gte?: string; lt?: string }): AsyncIterable<[string, V]>;
}

export interface StateSize {
  /** Estimated bytes of working state (heap estimate, or RocksDB live data). */
  liveBytes: number;
  /** Bytes on local disk (RocksDB files); 0 for heap backends. */
  diskBytes: number;
  entries: number;
}

/**
 * The serialized form of one operator subtask's state for one checkpoint. For full snapshots
 * `files` holds the whole state; for incremental RocksDB snapshots it lists the delta file written
 * now plus the earlier shared files the state still depends on.
 */
export interface KeyedStateSnapshot {
  backend: StateBackendKind;
  keyGroupRange: KeyGroupRange;
  /** Inline payload (memory backend: travels to and is kept in the host). */
  inline?: unknown;
  /** Files under the checkpoint storage, relative to its root (fs/rocksdb). */
  files?: Array<{ path: string; bytes: number; sha256: string; shared: boolean }>;
  /** Bytes written by this checkpoint (incremental size). */
  checkpointedBytes: number;
  /** Bytes of the complete state this snapshot restores to (full size). */
  fullBytes: number;
}

export interface KeyedStateBackend {
  readonly kind: StateBackendKind;
  table<V = unknown>(name: string): StateTable<V>;
  size(): Promise<StateSize>;
  /**
   * Synchronous part: capture a consistent view now (no record may change it afterwards).
   * The returned function is the asynchronous part: it serializes/writes the view while processing
   * continues, and resolves to the snapshot description.
   */
  snapshot(checkpointId: number): () => Promise<KeyedStateSnapshot>;
  /** Load state from one or more snapshots (several after a rescale), keeping only `range`. */
  restore(snapshots: KeyedStateSnapshot[], range: KeyGroupRange): Promise<void>;
  dispose(): Promise<void>;
}
