/**
 * Restore of a RocksDB backend from one or more keyed-state snapshots (several after a rescale).
 * Each snapshot's files are replayed in order (full file, or base then deltas), one RocksDB write
 * batch per file chunk, keeping only keys of the subtask's key-group range. Keys without a
 * key-group prefix (operator-wide entries) are kept by every subtask, as the heap backend does.
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
        await decodeStateFile(storage.resolve(file.path), storage.readStateFile(file.path), async (records) => {
          // One allocation for all keys of the batch; values stay views (the write batch copies them).
          let total = 0;
          for (const r of records) total += prefixOf(r.table).length + r.key.length;
          const keys = Buffer.allocUnsafe(total);
          let pos = 0;
          const ops: BatchOp[] = [];
          for (const r of records) {
            if (!ownsKeyGroup(range, keyGroupOfEncodedKey(r.key))) continue;
            const prefix = prefixOf(r.table);
            const start = pos;
            pos += prefix.copy(keys, pos);
            pos += r.key.copy(keys, pos);
            const key = keys.subarray(start, pos);
            ops.push(r.value ? { type: 'put', key, value: r.value } : { type: 'del', key });
          }
          await db.batch(ops);
        });
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
