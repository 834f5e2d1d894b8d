/**
 * One state-backend probe in a process of its own (so its peak memory is its own): loads `keys`
 * keys into a fresh backend, then runs a keyed read-modify-write workload (batches of 1024 random
 * keys: one `getMany`, one `writeMany`, as the window and aggregate operators do per record batch)
 * for `seconds`, and prints one JSON line: load rate, update rate, peak RSS and heap, or the error
 * that stopped it (the heap backends' HeapStateLimitError when the state outgrows the heap).
 *
 *   node --import tsx bench/state-probe.ts '{"backend":"rocksdb","keys":1000000,"seconds":3,"dir":"/tmp/x"}'
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { getHeapStatistics } from 'node:v8';
import { FsCheckpointWorkerStorage } from '../engine/checkpoint/fs-worker-storage.ts';
import { HeapStateBackend } from '../engine/state/heap.ts';
import { createRocksDBStateBackend } from '../engine/state/rocksdb-backend.ts';
import { keyGroupOf, stateKey } from '../engine/state/keygroups.ts';
import type { KeyedStateBackend } from '../engine/contracts/keyed-state.ts';
import type { StateBackendKind } from '../engine/graph/types.ts';

export interface ProbeRequest {
  backend: StateBackendKind;
  keys: number;
  seconds: number;
  dir: string;
  /** Which slice of the key space this process owns (parallelism > 1: one probe per subtask). */
  subtask?: number;
  parallelism?: number;
}

export interface ProbeResult {
  backend: StateBackendKind;
  keys: number;
  loadPerSec: number;
  updatesPerSec: number;
  peakRssMB: number;
  peakHeapMB: number;
  /** RSS before the backend was created (Node, tsx and the engine's modules): not the state's. */
  baseRssMB: number;
  error?: string;
  errorName?: string;
  /** Seconds from start until the error. */
  failedAfterS?: number;
}

export interface Counter {
  n: number;
  sum: number;
}

/** The state key of key index i (key group prefix, as operators write them). */
export function probeKey(i: number): string {
  const k = `user-${i}`;
  return stateKey(keyGroupOf(k, 128), k);
}

/** xorshift32: the same key sequence in every run and in the hand loop. */
export function rng(seed: number): () => number {
  let x = seed | 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
}

export const UPDATE_BATCH = 1024;

async function probe(req: ProbeRequest): Promise<ProbeResult> {
  const t0 = performance.now();
  const baseRss = process.memoryUsage.rss();
  let peakRss = 0;
  let peakHeap = 0;
  const sample = () => {
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
    peakHeap = Math.max(peakHeap, getHeapStatistics().used_heap_size);
  };
  const timer = setInterval(sample, 50);
  const range = { start: 0, end: 127 };
  mkdirSync(req.dir, { recursive: true });
  const storage = new FsCheckpointWorkerStorage(join(req.dir, 'checkpoints'));
  const parallelism = req.parallelism ?? 1;
  const subtask = req.subtask ?? 0;
  let backend: KeyedStateBackend | undefined;
  const result: ProbeResult = {
    backend: req.backend,
    keys: req.keys,
    loadPerSec: 0,
    updatesPerSec: 0,
    peakRssMB: 0,
    peakHeapMB: 0,
    baseRssMB: baseRss / 2 ** 20,
  };
  try {
    backend =
      req.backend === 'rocksdb'
        ? await createRocksDBStateBackend({
            storage,
            operatorId: 'probe',
            subtask,
            keyGroupRange: range,
            workDir: join(req.dir, 'work'),
            incremental: true,
          })
        : new HeapStateBackend({
            kind: req.backend,
            keyGroupRange: range,
            storage,
            fileStem: `probe-${subtask}`,
            operatorId: 'probe',
            subtask,
          });
    const table = backend.table<Counter>('counts');
    // This process's keys: every parallelism-th key, as a keyBy would split them.
    const mine = Math.floor(req.keys / parallelism);
    const keyOf = (j: number) => probeKey(j * parallelism + subtask);
    const tl = performance.now();
    for (let i = 0; i < mine; i += 10_000) {
      const batch: Array<readonly [string, Counter]> = [];
      for (let j = i; j < Math.min(mine, i + 10_000); j++) batch.push([keyOf(j), { n: 1, sum: j }]);
      await table.writeMany(batch);
    }
    result.loadPerSec = mine / ((performance.now() - tl) / 1000);
    sample();
    const random = rng(17 + subtask);
    const tu = performance.now();
    let updates = 0;
    while (performance.now() - tu < req.seconds * 1000) {
      const keys: string[] = [];
      for (let i = 0; i < UPDATE_BATCH; i++) keys.push(keyOf(Math.floor(random() * mine)));
      const values = await table.getMany(keys);
      const writes: Array<readonly [string, Counter]> = new Array(keys.length);
      for (let i = 0; i < keys.length; i++) {
        const v = values[i] ?? { n: 0, sum: 0 };
        writes[i] = [keys[i], { n: v.n + 1, sum: v.sum + i }];
      }
      await table.writeMany(writes);
      updates += keys.length;
    }
    result.updatesPerSec = updates / ((performance.now() - tu) / 1000);
  } catch (e) {
    result.error = (e as Error).message;
    result.errorName = (e as Error).name;
    result.failedAfterS = (performance.now() - t0) / 1000;
  } finally {
    clearInterval(timer);
    sample();
    await backend?.dispose().catch(() => undefined);
  }
  result.peakRssMB = peakRss / 2 ** 20;
  result.peakHeapMB = peakHeap / 2 ** 20;
  return result;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  probe(JSON.parse(process.argv[2]) as ProbeRequest).then(
    (r) => {
      process.stdout.write(JSON.stringify(r) + '\n');
      process.exit(0);
    },
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
}
