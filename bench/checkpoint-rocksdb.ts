/**
 * Benchmark: full vs incremental checkpoints of a RocksDB state of >= 1M keys, and restore time.
 * Prints numbers only (no timed assertions).
 *
 *   node --import tsx bench/checkpoint-rocksdb.ts [keys=1000000] [changedPercent=1]
 *
 * `bench/main.ts` can call `runCheckpointRocksDBBench()` and print `formatCheckpointRocksDBBench()`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { FsCheckpointWorkerStorage } from '../engine/checkpoint/fs-worker-storage.ts';
import { createRocksDBStateBackend } from '../engine/state/rocksdb-backend.ts';
import { keyGroupOf, stateKey } from '../engine/state/keygroups.ts';
import type { KeyedStateSnapshot } from '../engine/contracts/keyed-state.ts';

export interface CheckpointRocksDBBenchResult {
  keys: number;
  changedKeys: number;
  loadMs: number;
  full: { bytes: number; syncMs: number; asyncMs: number };
  incremental: { bytes: number; syncMs: number; asyncMs: number; files: number; ratio: number };
  restoreFullMs: number;
  restoreIncrementalMs: number;
}

const RANGE = { start: 0, end: 127 };

function key(i: number): string {
  const k = `user-${i}`;
  return stateKey(keyGroupOf(k, 128), k);
}

export async function runCheckpointRocksDBBench(
  opts: { keys?: number; changedPercent?: number } = {},
): Promise<CheckpointRocksDBBenchResult> {
  const keys = opts.keys ?? 1_000_000;
  const changedKeys = Math.round((keys * (opts.changedPercent ?? 1)) / 100);
  const dir = await mkdtemp(join(tmpdir(), 'weir-bench-rocks-'));
  const storage = new FsCheckpointWorkerStorage(join(dir, 'checkpoints', 'bench'));
  const make = (operatorId: string) =>
    createRocksDBStateBackend({
      storage,
      operatorId,
      subtask: 0,
      keyGroupRange: RANGE,
      workDir: join(dir, 'work'),
      incremental: true,
    });
  const backend = await make('win');
  const restored: Array<Awaited<ReturnType<typeof make>>> = [];
  let id = 0;
  const take = async (
    kind: 'checkpoint' | 'savepoint',
  ): Promise<{ snap: KeyedStateSnapshot; syncMs: number; asyncMs: number }> => {
    id++;
    storage.beginCheckpoint({ id, kind, timestamp: Date.now() });
    const t0 = performance.now();
    const asyncPart = backend.snapshot(id);
    const t1 = performance.now();
    const snap = await asyncPart();
    return { snap, syncMs: t1 - t0, asyncMs: performance.now() - t1 };
  };
  try {
    const table = backend.table<{ count: number; sum: number; last: string }>('windows');
    const t0 = performance.now();
    const batch = 10_000;
    for (let i = 0; i < keys; i += batch) {
      const entries: Array<readonly [string, { count: number; sum: number; last: string }]> = [];
      for (let j = i; j < Math.min(keys, i + batch); j++)
        entries.push([key(j), { count: j % 17, sum: j * 3, last: 'x' }]);
      await table.writeMany(entries);
    }
    const loadMs = performance.now() - t0;

    const base = await take('checkpoint'); // first incremental checkpoint = full base
    const changes: Array<readonly [string, { count: number; sum: number; last: string } | undefined]> = [];
    const stride = Math.max(1, Math.floor(keys / Math.max(1, changedKeys)));
    for (let n = 0; n < changedKeys; n++) {
      const i = (n * stride + 7) % keys;
      changes.push([key(i), n % 10 === 0 ? undefined : { count: -1, sum: n, last: 'changed' }]);
    }
    for (let i = 0; i < changes.length; i += batch) await table.writeMany(changes.slice(i, i + batch));
    const delta = await take('checkpoint');
    // A full (non-incremental) snapshot of the same state: savepoints always write everything.
    const full = await take('savepoint');

    const timeRestore = async (snap: KeyedStateSnapshot): Promise<number> => {
      const r = await make(`restore${restored.length}`);
      restored.push(r);
      const t = performance.now();
      await r.restore([snap], RANGE);
      return performance.now() - t;
    };
    const restoreFullMs = await timeRestore(full.snap);
    const restoreIncrementalMs = await timeRestore(delta.snap);
    void base;
    return {
      keys,
      changedKeys,
      loadMs,
      full: { bytes: full.snap.checkpointedBytes, syncMs: full.syncMs, asyncMs: full.asyncMs },
      incremental: {
        bytes: delta.snap.checkpointedBytes,
        syncMs: delta.syncMs,
        asyncMs: delta.asyncMs,
        files: delta.snap.files?.length ?? 0,
        ratio: delta.snap.checkpointedBytes / full.snap.checkpointedBytes,
      },
      restoreFullMs,
      restoreIncrementalMs,
    };
  } finally {
    for (const r of restored) await r.dispose();
    await backend.dispose();
    await rm(dir, { recursive: true, force: true });
  }
}

export function formatCheckpointRocksDBBench(r: CheckpointRocksDBBenchResult): string {
  const mb = (b: number) => `${(b / 1024 / 1024).toFixed(2)} MB`;
  const ms = (t: number) => `${t.toFixed(0)} ms`;
  return [
    `RocksDB checkpoints: ${r.keys.toLocaleString('en')} keys (loaded in ${ms(r.loadMs)}), ${r.changedKeys.toLocaleString('en')} changed between checkpoints`,
    `  full checkpoint:        ${mb(r.full.bytes).padStart(10)}  sync ${ms(r.full.syncMs)}, async ${ms(r.full.asyncMs)}`,
    `  incremental checkpoint: ${mb(r.incremental.bytes).padStart(10)}  sync ${ms(r.incremental.syncMs)}, async ${ms(r.incremental.asyncMs)}` +
      `  (${(r.incremental.ratio * 100).toFixed(2)}% of full, chain of ${r.incremental.files} files)`,
    `  restore from full:        ${ms(r.restoreFullMs)}`,
    `  restore base + delta:     ${ms(r.restoreIncrementalMs)}`,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const keys = Number(process.argv[2] ?? 1_000_000);
  const changedPercent = Number(process.argv[3] ?? 1);
  runCheckpointRocksDBBench({ keys, changedPercent }).then(
    (r) => {
      console.log(formatCheckpointRocksDBBench(r));
    },
    (err) => {
      console.error(err instanceof Error ? err.message : err);
      process.exitCode = 1;
    },
  );
}
