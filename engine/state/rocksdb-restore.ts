/**
 * Restore of a RocksDB backend from one or more keyed-state snapshots (several after a rescale).
 * Each snapshot's files are replayed in order (full file, or base then deltas), one RocksDB write
 * batch per file chunk, keeping only keys of the subtask's key-group range. Keys without a
 * key-group prefix (operator-wide entries) are kept by every subtask, as the heap backend does.
 *
 * Pipelined: while RocksDB writes one chunk's batch on a libuv thread, the JS thread decodes the
 * next chunk (profiles of the sequential version showed the JS thread idle for half the restore).
 * Batches of one file may be written in any order because a file holds each key at most once;
 * every write of a file is awaited before the next file (a delta's put or delete must land after
 * its base's put of the same key).
 *
 * Measured (1M keys, cpu profile, machine at load ~30-48): one RawStateRecord and three Buffer
 * views per key cost 1.7 CPU-s per 1M keys, a quarter of it garbage collection; records as offsets
 * and bare Uint8Array views cost 0.96 CPU-s, GC 3%. What is left on the JS thread is mostly the
 * binding's own `batch_put` (each key and value copied to a fresh native buffer, then again into
 * the WriteBatch), and RocksDB's memtable inserts run on one libuv thread: re-inserting keys through
 * this package cannot go much faster. Flink restores RocksDB state by placing SST files (ingesting
 * or hard-linking a checkpoint's files), which the `rocksdb` package does not expose.
 */
import type { KeyGroupRange, KeyedStateSnapshot } from '../contracts/keyed-state.ts';
import type { CheckpointWorkerStorage } from '../contracts/checkpoint-storage.ts';
import { visitStateFile, type StateRecordVisitor } from './state-file.ts';
import { dbKey, keyGroupOfEncodedKey, tablePrefix } from './rocksdb-keys.ts';
import { isInlineState } from './inline-state.ts';
import type { BatchOp, NativeDb, NativeWriteBatch } from './rocksdb-native.ts';

function ownsKeyGroup(range: KeyGroupRange, group: number): boolean {
  return group < 0 || (group >= range.start && group <= range.end);
}

/**
 * Replays one state file: one write batch per file chunk, at most two in flight (one being written
 * by RocksDB, one being filled). Keys and values go to the native batch as Uint8Array views (the
 * binding copies them at once), the key assembled in one reused buffer: no object per record
 * beyond the two views the binding needs (see `visitStateFile`).
 */
async function replayFile(
  db: NativeDb,
  storage: CheckpointWorkerStorage,
  path: string,
  range: KeyGroupRange,
  prefixOf: (table: string) => Buffer,
): Promise<void> {
  const inFlight = new Set<Promise<void>>();
  const failure: { error: Error | null } = { error: null };
  let batch: NativeWriteBatch | null = null;
  let key = new Uint8Array(256);
  let lastTable = '';
  let prefix: Buffer = Buffer.alloc(0);
  const visitor: StateRecordVisitor = {
    record(table, buf, ks, kl, vs, vl) {
      if (!ownsKeyGroup(range, keyGroupOfEncodedKey(buf, ks, ks + kl))) return;
      if (table !== lastTable) {
        lastTable = table;
        prefix = prefixOf(table);
      }
      const plen = prefix.length;
      const len = plen + kl;
      if (len > key.length) key = new Uint8Array(len * 2);
      // Byte loops: keys are short, and Buffer.copy's argument checks cost more than the copy.
      for (let i = 0; i < plen; i++) key[i] = prefix[i];
      for (let i = 0; i < kl; i++) key[plen + i] = buf[ks + i];
      const k = new Uint8Array(key.buffer, 0, len);
      batch ??= db.writeBatch();
      if (vl < 0) batch.del(k);
      else batch.put(k, new Uint8Array(buf.buffer, buf.byteOffset + vs, vl));
    },
    async endOfChunk() {
      if (failure.error) throw failure.error;
      const b = batch;
      batch = null;
      if (!b) return;
      const write = b.write().then(
        () => {
          inFlight.delete(write);
        },
        (err: unknown) => {
          inFlight.delete(write);
          failure.error ??= err instanceof Error ? err : new Error(String(err));
        },
      );
      inFlight.add(write);
      if (inFlight.size >= 2) await Promise.race(inFlight);
    },
  };
  await visitStateFile(storage.resolve(path), storage.readStateFile(path), visitor);
  await Promise.all(inFlight);
  if (failure.error) throw failure.error;
}

export async function restoreSnapshots(
  db: NativeDb,
  storage: CheckpointWorkerStorage,
  snapshots: readonly KeyedStateSnapshot[],
  range: KeyGroupRange,
): Promise<void> {
  const prefixes = new Map<string, Buffer>();
  const prefixOf = (table: string): Buffer => {
    let p = prefixes.get(table);
    if (!p) prefixes.set(table, (p = tablePrefix(table)));
    return p;
  };
  for (const snap of snapshots) {
    if (snap.files?.length) {
      for (const file of snap.files) await replayFile(db, storage, file.path, range, prefixOf);
    } else if (snap.inline !== undefined) {
      if (!isInlineState(snap.inline)) {
        throw new Error(`cannot restore an inline '${snap.backend}' snapshot into RocksDB: unknown inline format`);
      }
      for (const [table, entries] of Object.entries(snap.inline.tables)) {
        const prefix = prefixOf(table);
        let ops: BatchOp[] = [];
        for (const [k, v] of entries) {
          const key = dbKey(prefix, k);
          if (!ownsKeyGroup(range, keyGroupOfEncodedKey(key, prefix.length))) continue;
          ops.push({ type: 'put', key, value: Buffer.from(JSON.stringify(v), 'utf8') });
          if (ops.length >= 4096) {
            await db.batch(ops);
            ops = [];
          }
        }
        await db.batch(ops);
      }
    }
  }
}
