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
 */
import type { KeyGroupRange, KeyedStateSnapshot } from '../contracts/keyed-state.ts';
import type { CheckpointWorkerStorage } from '../contracts/checkpoint-storage.ts';
import { decodeStateFile } from './state-file.ts';
import { dbKey, keyGroupOfEncodedKey, tablePrefix } from './rocksdb-keys.ts';
import { isInlineState } from './inline-state.ts';
import type { BatchOp, NativeDb } from './rocksdb-native.ts';

function ownsKeyGroup(range: KeyGroupRange, group: number): boolean {
  return group < 0 || (group >= range.start && group <= range.end);
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
      for (const file of snap.files) {
        const inFlight = new Set<Promise<void>>();
        const failure: { error: Error | null } = { error: null };
        await decodeStateFile(storage.resolve(file.path), storage.readStateFile(file.path), async (records) => {
          if (failure.error) throw failure.error;
          const batch = db.writeBatch();
          // One buffer reused for every key: the native batch copies each key as it is added.
          let key = Buffer.allocUnsafe(256);
          for (const r of records) {
            if (!ownsKeyGroup(range, keyGroupOfEncodedKey(r.key))) continue;
            const prefix = prefixOf(r.table);
            const len = prefix.length + r.key.length;
            if (len > key.length) key = Buffer.allocUnsafe(len * 2);
            prefix.copy(key, 0);
            r.key.copy(key, prefix.length);
            const k = key.subarray(0, len);
            if (r.value) batch.put(k, r.value);
            else batch.del(k);
          }
          const write = batch.write().then(
            () => {
              inFlight.delete(write);
            },
            (err: unknown) => {
              inFlight.delete(write);
              failure.error ??= err instanceof Error ? err : new Error(String(err));
            },
          );
          inFlight.add(write);
          // Two batches at most: one being written, one being filled.
          if (inFlight.size >= 2) await Promise.race(inFlight);
        });
        await Promise.all(inFlight);
        if (failure.error) throw failure.error;
      }
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
