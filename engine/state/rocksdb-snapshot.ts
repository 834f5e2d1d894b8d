/**
 * Snapshots of a RocksDB state backend, full and incremental.
 *
 * Synchronous part (cheap, under the task's lock): open a RocksDB iterator, which pins an implicit
 * RocksDB snapshot (a point-in-time view), and take the changes (key -> latest value or delete)
 * made since the previous checkpoint. Asynchronous part (while processing continues): write the
 * view, or the changes, to a state file.
 *
 * Full mode (`incremental: false`, and every savepoint): all entries of the view go to one file in
 * the checkpoint's own folder.
 *
 * Incremental mode: a checkpoint writes a shared *delta* file with the keys changed (put or deleted)
 * since the previous checkpoint, with the values the backend wrote (a changelog kept as writes
 * happen: looking each key up in the view meant one synchronous native `seek` per key on the task
 * thread, which over the tombstones of fired windows took 81% of a window job's task CPU and cut
 * it from ~220K to ~15-40K events/s with 1 s checkpoints), and references the earlier files of its
 * chain `[base, delta1, delta2, ...]`; restore replays them in order. A fresh full *base* (also
 * shared) starts a new chain when
 *   - there is no valid chain (first checkpoint, after a restore, after a failed snapshot write),
 *   - the chain already holds `maxDeltaChain` deltas (default 8), bounding restore work, or
 *   - more than a quarter of the estimated keys changed (a delta would not save much), or more
 *     keys changed than the snapshotter remembers (`maxTrackedChanges`, bounding heap use).
 * Once all retained checkpoints use the new base, the storage's reference counting deletes the old
 * chain. Savepoints are full and self-contained and leave the checkpoint chain untouched.
 *
 * Snapshots are written one after another (each waits for the previous write) so a delta is always
 * written after the file it builds on.
 */
import type { KeyGroupRange, KeyedStateSnapshot } from '../contracts/keyed-state.ts';
import type { CheckpointWorkerStorage, StateFileRef } from '../contracts/checkpoint-storage.ts';
import { StateFileEncoder } from './state-file.ts';
import { tableNameEnd, tableNameOf } from './rocksdb-keys.ts';
import type { NativeDb, NativeIterator } from './rocksdb-native.ts';
import { randomBytes } from 'node:crypto';

export interface SnapshotterOptions {
  db: () => NativeDb;
  storage: CheckpointWorkerStorage;
  /** Unique per operator subtask, file-name safe. */
  fileStem: string;
  keyGroupRange: () => KeyGroupRange;
  incremental: boolean;
  maxDeltaChain?: number;
  /** Changed keys remembered between checkpoints before falling back to a full base (default 1M). */
  maxTrackedChanges?: number;
  /** Bytes of changed values remembered before falling back to a full base (default 64 MB). */
  maxTrackedBytes?: number;
}

/** Reuses the decoded table name while consecutive keys share a table prefix. */
class TableNameCache {
  private prefix: Buffer | null = null;
  private name = '';
  nameOf(key: Buffer, nameEnd: number): string {
    const p = this.prefix;
    if (p && p.length === nameEnd && key.compare(p, 0, nameEnd, 0, nameEnd) === 0) return this.name;
    this.prefix = Buffer.from(key.subarray(0, nameEnd));
    this.name = tableNameOf(key, nameEnd);
    return this.name;
  }
}

export class RocksDBSnapshotter {
  private chain: StateFileRef[] = [];
  private chainValid = false;
  private previous: Promise<unknown> = Promise.resolve();
  /**
   * Changes since the last chain file: latin1 view of the db key bytes -> the JSON value last
   * written, or null for a delete.
   */
  private changed = new Map<string, string | null>();
  private changedBytes = 0;
  private overflowed = false;
  /**
   * Whether changes are worth remembering: only once a checkpoint that starts or extends a chain
   * has been taken. Before that the next checkpoint writes a full base whatever changed, so a
   * first load of 1M keys skips the Set (1.3 s of a 7 s load in the profile of bench/state.ts).
   */
  private tracking = false;
  private readonly maxDeltaChain: number;
  private readonly maxTrackedChanges: number;

  private readonly maxTrackedBytes: number;

  constructor(private readonly opts: SnapshotterOptions) {
    this.maxDeltaChain = opts.maxDeltaChain ?? 8;
    this.maxTrackedChanges = opts.maxTrackedChanges ?? 1_000_000;
    this.maxTrackedBytes = opts.maxTrackedBytes ?? 64 * 1024 * 1024;
  }

  get tracksChanges(): boolean {
    return this.tracking;
  }

  /**
   * Called by the backend for every put (`value`: its JSON) or delete (null) once tracking. The map
   * lives on the heap, so it is capped: past `maxTrackedChanges` keys or `maxTrackedBytes` of
   * values (a huge load, or checkpoints far apart) tracking stops and the next checkpoint writes a
   * fresh base instead of a delta.
   */
  trackChange(dbKey: Buffer, value: string | null): void {
    if (this.overflowed) return;
    this.changed.set(dbKey.toString('latin1'), value);
    this.changedBytes += dbKey.length + (value === null ? 0 : value.length);
    if (this.changed.size > this.maxTrackedChanges || this.changedBytes > this.maxTrackedBytes) {
      this.overflowed = true;
      this.changed = new Map();
      this.changedBytes = 0;
    }
  }

  /** After a restore: the next checkpoint starts a new chain. */
  reset(): void {
    this.chain = [];
    this.chainValid = false;
    this.changed = new Map();
    this.changedBytes = 0;
    this.overflowed = false;
    this.tracking = false;
  }

  /** Files of the current chain (for tests and diagnostics). */
  get currentChain(): readonly StateFileRef[] {
    return this.chain;
  }

  snapshot(checkpointId: number): () => Promise<KeyedStateSnapshot> {
    const db = this.opts.db();
    const kind = this.opts.storage.kindOf(checkpointId);
    const range = this.opts.keyGroupRange();
    const view = db.iterator(); // pins the point-in-time view now
    const partOfChain = this.opts.incremental && kind === 'checkpoint';
    let changed: Map<string, string | null> | null = null;
    let overflowed = false;
    if (partOfChain) {
      changed = this.changed;
      overflowed = this.overflowed;
      this.changed = new Map();
      this.changedBytes = 0;
      this.overflowed = false;
      // Writes from now on belong to the next delta, built on the file this checkpoint writes.
      this.tracking = true;
    }
    const estimatedKeys = db.numericProperty('rocksdb.estimate-num-keys');
    const previous = this.previous;

    const run = async (): Promise<KeyedStateSnapshot> => {
      await previous.catch(() => undefined);
      try {
        let written: StateFileRef;
        let files: StateFileRef[];
        if (!partOfChain) {
          written = await this.writeFull(view, checkpointId, false);
          files = [written];
        } else if (!overflowed && this.deltaAllowed(changed!.size, estimatedKeys)) {
          written = await this.writeDelta(checkpointId, changed!);
          files = [...this.chain, written];
        } else {
          written = await this.writeFull(view, checkpointId, true);
          files = [written];
        }
        if (partOfChain) {
          this.chain = files;
          this.chainValid = true;
        }
        return {
          backend: 'rocksdb',
          keyGroupRange: { ...range },
          files,
          checkpointedBytes: written.bytes,
          fullBytes: files.reduce((s, f) => s + f.bytes, 0),
        };
      } catch (err) {
        // The changes captured for this checkpoint are lost to the chain: start a new base next time.
        if (partOfChain) this.chainValid = false;
        throw err;
      } finally {
        await view.end();
      }
    };
    const result = run();
    this.previous = result;
    result.catch(() => undefined); // the caller observes the error through the returned function
    return () => result;
  }

  private deltaAllowed(changedKeys: number, estimatedKeys: number): boolean {
    if (!this.chainValid || this.chain.length === 0) return false;
    if (this.chain.length - 1 >= this.maxDeltaChain) return false;
    return changedKeys <= Math.max(estimatedKeys / 4, 64);
  }

  private fileName(checkpointId: number, what: 'full' | 'base' | 'delta'): string {
    if (what === 'full') return `${this.opts.fileStem}.wst`;
    return `${this.opts.fileStem}-${checkpointId}-${what}-${randomBytes(4).toString('hex')}.wst`;
  }

  private async writeFull(view: NativeIterator, checkpointId: number, shared: boolean): Promise<StateFileRef> {
    const sink = await this.opts.storage.createStateFile(
      checkpointId,
      this.fileName(checkpointId, shared ? 'base' : 'full'),
      { shared },
    );
    try {
      const enc = new StateFileEncoder(sink);
      const names = new TableNameCache();
      for (;;) {
        const entries = await view.nextBatch();
        if (entries.length === 0) break;
        for (const [key, value] of entries) {
          const nameEnd = tableNameEnd(key);
          enc.put(names.nameOf(key, nameEnd), key.subarray(nameEnd + 1), value);
          if (enc.full) await enc.flush();
        }
      }
      await enc.end();
      return await sink.commit();
    } catch (err) {
      await sink.abort();
      throw err;
    }
  }

  private async writeDelta(checkpointId: number, changed: Map<string, string | null>): Promise<StateFileRef> {
    const sink = await this.opts.storage.createStateFile(checkpointId, this.fileName(checkpointId, 'delta'), {
      shared: true,
    });
    try {
      const enc = new StateFileEncoder(sink);
      const names = new TableNameCache();
      // Each key once, in any order: a delta replays onto its base, and its keys are distinct.
      for (const [text, value] of changed) {
        const key = Buffer.from(text, 'latin1');
        const nameEnd = tableNameEnd(key);
        const table = names.nameOf(key, nameEnd);
        if (value !== null) enc.put(table, key.subarray(nameEnd + 1), Buffer.from(value, 'utf8'));
        else enc.del(table, key.subarray(nameEnd + 1));
        if (enc.full) await enc.flush();
      }
      await enc.end();
      return await sink.commit();
    } catch (err) {
      await sink.abort();
      throw err;
    }
  }
}
