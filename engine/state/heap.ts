/**
 * HeapStateBackend: working state in JavaScript Maps on the task's heap (the `memory` and `fs`
 * backends of docs/architecture.md). They differ only in where snapshots go:
 * - memory: the snapshot is `inline` data that travels to the host and is kept in its memory;
 * - fs: the snapshot is one file written through the checkpoint storage (`files`).
 *
 * Memory-backend snapshots are copy-on-write, as Flink's CopyOnWriteStateMap: each table keeps a *snapshot map*
 * of deep copies owned by the backend (never handed to an operator, never mutated: an entry is
 * only replaced), and the keys *touched* since the last snapshot. A key is touched when it is
 * written, and when its value is handed out by `getMany` or `scan` (the operator may change that
 * object in place, keyed-state.ts). The synchronous part copies only the touched keys into the
 * snapshot map (the first snapshot copies everything), so its cost follows what changed since the
 * last checkpoint, not the state's size; the asynchronous part serializes/writes the snapshot map
 * while processing continues. A snapshot map still being read by an unfinished asynchronous part
 * is copied (pointers only) before the next synchronous part changes it.
 *
 * Cost: once checkpointing, the snapshot maps keep a second copy of the state on the heap (the full
 * copy used to live only while a snapshot was taken). That is why only the memory backend keeps
 * them: its state is bounded by `memoryStateLimit`, while the fs backend is the one chosen for
 * state too large to hold twice: its synchronous part serializes every table into the bytes of its
 * state file (no heap copy is kept, and serializing costs about half of a deep copy that would be
 * serialized afterwards; the asynchronous part only writes them). Flink's map shares unchanged
 * entries instead, copying on read; here an operator may keep objects across snapshots (the window
 * operator's cache) and change them in place, so a shared entry could change under an unfinished
 * asynchronous part.
 *
 * Rule this relies on (keyed-state.ts): an operator that changes a value in place writes it back
 * with `writeMany` (or has read it with `getMany`/`scan`) after the previous snapshot and before
 * the next one; the window operator's `prepareSnapshot` flush does exactly that.
 */
import type { StateBackendKind } from '../graph/types.ts';
import type {
  KeyedStateBackend,
  KeyedStateSnapshot,
  KeyGroupRange,
  StateSize,
  StateTable,
} from '../contracts/keyed-state.ts';
import type { CheckpointWorkerStorage, StateFileSink } from '../contracts/checkpoint-storage.ts';
import { keyGroupOfStateKey } from './keygroups.ts';
import { INLINE_STATE_FORMAT, isInlineState, type InlineState } from './inline-state.ts';
import { StateFileEncoder, decodeStateFile, type ChunkSink } from './state-file.ts';
import { decodeKey } from './key-codec.ts';
import { HeapMemoryGuard } from './heap-memory-guard.ts';

export interface HeapStateBackendOptions {
  kind: 'memory' | 'fs';
  keyGroupRange: KeyGroupRange;
  /** fs flavour: snapshot files go through the task-side checkpoint storage. */
  storage?: CheckpointWorkerStorage;
  /** Unique file name stem per operator subtask (`node-subtask`). */
  fileStem?: string;
  /** Who owns the state (named when it outgrows the heap; heap-memory-guard.ts). */
  operatorId?: string;
  subtask?: number;
  /** Used heap bytes the state may fill the task process to (default: heap-memory-guard.ts). */
  heapLimitBytes?: number;
}

/**
 * One table: a Map for point access plus a lazily maintained sorted key index for `scan`.
 * New keys collect in `added` and are merged into `sorted` on the next scan (one sort of the new
 * keys and one linear merge), so repeated scans between writes cost O(log n + k), not a full sort.
 * Deleted keys stay in `sorted` until the next merge and are skipped while iterating.
 */
class HeapTable<V> implements StateTable<V> {
  readonly map = new Map<string, V>();
  private sorted: string[] = [];
  private added: string[] = [];
  private deletions = 0;
  /** Deep copies as of the last snapshot; null until the first one (and after a restore). */
  private snap: Map<string, V> | null = null;
  /** Asynchronous parts still reading `snap`: the next synchronous part copies it first. */
  private snapReaders = 0;
  /** Keys written or handed out since the last snapshot (tracked only once `snap` exists). */
  private touched = new Set<string>();
  constructor(
    readonly name: string,
    private readonly guard: HeapMemoryGuard,
    private readonly entries: () => number,
  ) {}

  async getMany(keys: readonly string[]): Promise<Array<V | undefined>> {
    const out = new Array<V | undefined>(keys.length);
    for (let i = 0; i < keys.length; i++) out[i] = this.map.get(keys[i]);
    if (this.snap) for (let i = 0; i < keys.length; i++) if (out[i] !== undefined) this.touched.add(keys[i]);
    return out;
  }

  async writeMany(entries: ReadonlyArray<readonly [string, V | undefined]>): Promise<void> {
    for (let i = 0; i < entries.length; i++) this.put(entries[i][0], entries[i][1]);
    this.guard.afterWrites(entries.length, this.entries);
  }

  put(k: string, v: V | undefined): void {
    if (this.snap) this.touched.add(k);
    if (v === undefined) {
      if (this.map.delete(k)) this.deletions++;
    } else {
      if (!this.map.has(k)) this.added.push(k);
      this.map.set(k, v);
    }
  }

  clear(): void {
    this.map.clear();
    this.sorted = [];
    this.added = [];
    this.deletions = 0;
    this.snap = null;
    this.touched = new Set();
  }

  /**
   * Synchronous part of the memory backend: brings the snapshot map up to date (deep copies of the
   * touched keys, or of everything the first time) and pins it. `release` must be called once the caller has read it.
   */
  captureSnapshot(): { entries: ReadonlyMap<string, V>; release: () => void } {
    let snap = this.snap;
    if (snap === null) {
      snap = new Map();
      for (const [k, v] of this.map) snap.set(k, structuredClone(v));
    } else {
      if (this.snapReaders > 0) {
        snap = new Map(snap);
        this.snapReaders = 0;
      }
      for (const k of this.touched) {
        const v = this.map.get(k);
        if (v === undefined) snap.delete(k);
        else snap.set(k, structuredClone(v));
      }
    }
    this.touched.clear();
    this.snap = snap;
    this.snapReaders++;
    let released = false;
    return {
      entries: snap,
      release: () => {
        // Only the current snapshot map counts readers: a replaced one is garbage once read.
        if (released) return;
        released = true;
        if (this.snap === snap) this.snapReaders--;
      },
    };
  }

  /**
   * Synchronous part of the fs backend: every entry encoded now into the state file's bytes
   * (`chunks`, written by the asynchronous part; no Buffer per key or value).
   * Serializing is the copy: a deep copy first, serialized later, cost twice as much on the task
   * thread (structuredClone of a COUNT(DISTINCT) object of thousands of keys is slower than its
   * JSON), and the serialized copy is compact and off the heap. A value JSON cannot write throws
   * here, and the caller reports it from the asynchronous part, where it always came from.
   */
  serializeInto(enc: StateFileEncoder, chunks: Uint8Array[]): void {
    for (const [k, v] of this.map) {
      enc.putText(this.name, k, JSON.stringify(v));
      if (enc.full) chunks.push(enc.cut()!);
    }
  }

  private index(): string[] {
    if (this.added.length === 0 && this.deletions * 2 <= this.sorted.length) return this.sorted;
    const add = this.added.sort();
    const old = this.sorted;
    const out: string[] = [];
    let i = 0,
      j = 0;
    let last: string | undefined;
    // Merge, dropping deleted keys and the duplicates a delete + re-add leaves behind.
    while (i < old.length || j < add.length) {
      const k = j >= add.length || (i < old.length && old[i] < add[j]) ? old[i++] : add[j++];
      if (k !== last && this.map.has(k)) {
        out.push(k);
        last = k;
      }
    }
    this.sorted = out;
    this.added = [];
    this.deletions = 0;
    return out;
  }

  async *scan(range?: { gte?: string; lt?: string }): AsyncIterable<[string, V]> {
    const keys = this.index();
    let lo = 0,
      hi = keys.length;
    if (range?.gte !== undefined) {
      const gte = range.gte;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (keys[mid] < gte) lo = mid + 1;
        else hi = mid;
      }
    }
    const lt = range?.lt;
    for (let i = lo; i < keys.length; i++) {
      const k = keys[i];
      if (lt !== undefined && k >= lt) return;
      // A key deleted while the scan runs is skipped, never returned stale.
      const v = this.map.get(k);
      if (v !== undefined || this.map.has(k)) {
        if (this.snap) this.touched.add(k);
        yield [k, v as V];
      }
    }
  }
}

/** The fs snapshot's encoder only `cut`s its chunks; they are written to the file afterwards. */
const UNUSED_SINK: ChunkSink = {
  write: () => Promise.reject(new Error('heap snapshot chunks are written by the asynchronous part')),
};

export class HeapStateBackend implements KeyedStateBackend {
  readonly kind: StateBackendKind;
  private readonly tables = new Map<string, HeapTable<unknown>>();
  private range: KeyGroupRange;
  private lastSnapshotBytes = 0;
  readonly memoryGuard: HeapMemoryGuard;

  constructor(private readonly opts: HeapStateBackendOptions) {
    this.kind = opts.kind;
    this.memoryGuard = new HeapMemoryGuard({
      operatorId: opts.operatorId ?? opts.fileStem ?? 'keyed state',
      subtask: opts.subtask ?? 0,
      backend: opts.kind,
      limitBytes: opts.heapLimitBytes,
    });
    this.range = opts.keyGroupRange;
    if (opts.kind === 'fs' && !opts.storage) throw new Error('the fs state backend needs a checkpoint storage');
  }

  table<V = unknown>(name: string): StateTable<V> {
    let t = this.tables.get(name);
    if (!t) {
      t = new HeapTable<unknown>(name, this.memoryGuard, () => this.entryCount());
      this.tables.set(name, t);
    }
    return t as unknown as StateTable<V>;
  }

  private entryCount(): number {
    let entries = 0;
    for (const t of this.tables.values()) entries += t.map.size;
    return entries;
  }

  async size(): Promise<StateSize> {
    const entries = this.entryCount();
    // A cheap estimate between snapshots; exact serialized size once a snapshot has been taken.
    const liveBytes = Math.max(this.lastSnapshotBytes, entries * 48);
    return { liveBytes, diskBytes: 0, entries };
  }

  snapshot(checkpointId: number): () => Promise<KeyedStateSnapshot> {
    const range = { ...this.range };
    if (this.opts.kind === 'memory') {
      const captured = [...this.tables].map(([name, t]) => ({ name, ...t.captureSnapshot() }));
      const release = () => captured.forEach((c) => c.release());
      return async () => {
        const copy: InlineState = { format: INLINE_STATE_FORMAT, tables: {} };
        // The arrays share the snapshot maps' copies, which are replaced, never changed.
        for (const c of captured) if (c.entries.size > 0) copy.tables[c.name] = [...c.entries];
        release();
        const bytes = Buffer.byteLength(JSON.stringify(copy));
        this.lastSnapshotBytes = bytes;
        return { backend: 'memory', keyGroupRange: range, inline: copy, checkpointedBytes: bytes, fullBytes: bytes };
      };
    }
    const chunks: Uint8Array[] = [];
    let unwritable: Error | null = null;
    try {
      const enc = new StateFileEncoder(UNUSED_SINK);
      for (const t of this.tables.values()) t.serializeInto(enc, chunks);
      enc.endMarker();
      chunks.push(enc.cut()!);
    } catch (e) {
      unwritable = e instanceof Error ? e : new Error(String(e));
    }
    return async () => {
      if (unwritable !== null) throw unwritable;
      const storage = this.opts.storage!;
      let sink: StateFileSink | undefined;
      try {
        sink = await storage.createStateFile(checkpointId, `${this.opts.fileStem ?? 'heap'}.heap.state`);
        for (const c of chunks) await sink.write(c);
        const ref = await sink.commit();
        this.lastSnapshotBytes = ref.bytes;
        return {
          backend: 'fs',
          keyGroupRange: range,
          files: [ref],
          checkpointedBytes: ref.bytes,
          fullBytes: ref.bytes,
        };
      } catch (e) {
        await sink?.abort();
        throw e;
      }
    };
  }

  async restore(snapshots: KeyedStateSnapshot[], range: KeyGroupRange): Promise<void> {
    this.range = range;
    for (const t of this.tables.values()) t.clear();
    // Keys without a key-group prefix belong to the subtask whose range starts at group 0.
    const owns = (k: string): boolean => {
      const g = keyGroupOfStateKey(k);
      return Number.isNaN(g) ? range.start === 0 : g >= range.start && g <= range.end;
    };
    for (const s of snapshots) {
      if (s.files && s.files.length) {
        const storage = this.opts.storage;
        if (!storage)
          throw new Error(
            `cannot restore a file snapshot into the '${this.kind}' state backend without checkpoint storage`,
          );
        for (const f of s.files) {
          await decodeStateFile(storage.resolve(f.path), storage.readStateFile(f.path), (records) => {
            for (const r of records) {
              const t = this.table(r.table) as unknown as HeapTable<unknown>;
              const k = decodeKey(r.key);
              if (!owns(k)) continue;
              t.put(k, r.value === null ? undefined : JSON.parse(r.value.toString('utf8')));
            }
            this.memoryGuard.afterWrites(records.length, () => this.entryCount());
          });
        }
      } else if (s.inline !== undefined) {
        if (!isInlineState(s.inline))
          throw new Error(`cannot restore an inline '${s.backend}' snapshot: unknown inline format`);
        for (const [name, entries] of Object.entries(s.inline.tables)) {
          const t = this.table(name) as unknown as HeapTable<unknown>;
          for (const [k, v] of entries) if (owns(k)) t.put(k, structuredClone(v));
          this.memoryGuard.afterWrites(entries.length, () => this.entryCount());
        }
      }
    }
  }

  async dispose(): Promise<void> {
    this.tables.clear();
  }
}
