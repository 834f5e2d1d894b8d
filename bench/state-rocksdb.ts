/**
 * Bench section 'RocksDB' (issue 14 items 4 and 5), in this process:
 * - the RocksDB backend against a hand-written loop on the `rocksdb` package doing the same reads
 *   and writes with the best batching the package allows (bench/rocksdb-hand-loop.ts): loading
 *   keys, and a keyed read-modify-write workload; rounds alternate, medians;
 * - 1M keys (50K in --quick): load rate, full and incremental checkpoint bytes and durations
 *   (1% of the keys changed), and restore rate against the package's own batched put rate.
 */
import { join } from 'node:path';
import { rm } from 'node:fs/promises';
import { FsCheckpointWorkerStorage } from '../engine/checkpoint/fs-worker-storage.ts';
import { createRocksDBStateBackend, type RocksDBStateBackend } from '../engine/state/rocksdb-backend.ts';
import type { KeyedStateSnapshot } from '../engine/contracts/keyed-state.ts';
import type { BenchFigure, BenchOptions } from './report.ts';
import { median } from './report.ts';
import { HandRocks, handLoad, handUpdates } from './rocksdb-hand-loop.ts';
import { UPDATE_BATCH, probeKey, rng, type Counter } from './state-probe.ts';

const RANGE = { start: 0, end: 127 };
const SECTION = 'RocksDB';

async function backendLoad(table: ReturnType<RocksDBStateBackend['table']>, keys: number): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < keys; i += 10_000) {
    const batch: Array<readonly [string, Counter]> = [];
    for (let j = i; j < Math.min(keys, i + 10_000); j++) batch.push([probeKey(j), { n: 1, sum: j }]);
    await table.writeMany(batch);
  }
  return keys / ((performance.now() - t0) / 1000);
}

async function backendUpdates(
  table: ReturnType<RocksDBStateBackend['table']>,
  keys: number,
  seconds: number,
): Promise<number> {
  const random = rng(17);
  const t0 = performance.now();
  let updates = 0;
  while (performance.now() - t0 < seconds * 1000) {
    const k: string[] = new Array(UPDATE_BATCH);
    for (let i = 0; i < UPDATE_BATCH; i++) k[i] = probeKey(Math.floor(random() * keys));
    const values = (await table.getMany(k)) as Array<Counter | undefined>;
    const writes: Array<readonly [string, Counter]> = new Array(UPDATE_BATCH);
    for (let i = 0; i < UPDATE_BATCH; i++) {
      const v = values[i] ?? { n: 0, sum: 0 };
      writes[i] = [k[i], { n: v.n + 1, sum: v.sum + i }];
    }
    await table.writeMany(writes);
    updates += UPDATE_BATCH;
  }
  return updates / ((performance.now() - t0) / 1000);
}

function makeBackend(dir: string, storage: FsCheckpointWorkerStorage, id: string): Promise<RocksDBStateBackend> {
  return createRocksDBStateBackend({
    storage,
    operatorId: id,
    subtask: 0,
    keyGroupRange: RANGE,
    workDir: join(dir, 'work'),
    incremental: true,
  });
}

/** Item 4: backend vs hand loop, alternating rounds. */
async function againstHandLoop(opts: BenchOptions): Promise<BenchFigure[]> {
  const keys = opts.quick ? 20_000 : 200_000;
  const seconds = opts.quick ? 0.5 : 2;
  const rounds = opts.quick ? 1 : 3;
  const storage = new FsCheckpointWorkerStorage(join(opts.dir, 'rocks-hand', 'checkpoints'));
  const s = { bLoad: [] as number[], hLoad: [] as number[], bUpd: [] as number[], hUpd: [] as number[] };
  for (let r = 0; r < rounds; r++) {
    const backend = await makeBackend(join(opts.dir, 'rocks-hand'), storage, `hand-${r}`);
    try {
      const table = backend.table<Counter>('counts');
      s.bLoad.push(await backendLoad(table, keys));
      s.bUpd.push(await backendUpdates(table, keys, seconds));
    } finally {
      await backend.dispose();
    }
    const loc = join(opts.dir, 'rocks-hand', `raw-${r}`);
    const hand = await HandRocks.open(loc);
    try {
      s.hLoad.push(await handLoad(hand, probeKey, keys));
      s.hUpd.push(await handUpdates(hand, probeKey, keys, seconds));
    } finally {
      await hand.close();
      await rm(loc, { recursive: true, force: true });
    }
  }
  const fig = (name: string, b: number[], h: number[], unit: string): BenchFigure => {
    const value = median(b);
    const base = median(h);
    return {
      section: SECTION,
      name,
      value,
      unit,
      baseline: { name: 'hand loop on the rocksdb package', value: base },
      ratio: value / base,
      target: '>= 0.5 of the hand loop',
      met: value / base >= 0.5,
      samples: b,
    };
  };
  return [
    fig(`load ${keys.toLocaleString('en-US')} keys (batches of 10,000)`, s.bLoad, s.hLoad, 'puts/s'),
    fig(`read-modify-write, ${UPDATE_BATCH} random keys a batch`, s.bUpd, s.hUpd, 'updates/s'),
  ];
}

/** Item 5: 1M keys: load, full and incremental checkpoints, restore. */
async function checkpointsAndRestore(opts: BenchOptions): Promise<BenchFigure[]> {
  const keys = opts.quick ? 50_000 : 1_000_000;
  const changed = Math.round(keys / 100);
  const rounds = opts.quick ? 1 : 3;
  const dir = join(opts.dir, 'rocks-cp');
  const storage = new FsCheckpointWorkerStorage(join(dir, 'checkpoints'));
  const label = keys >= 1e6 ? `${keys / 1e6}M` : `${keys / 1e3}K`;
  const backend = await makeBackend(dir, storage, 'cp');
  const figures: BenchFigure[] = [];
  let id = 0;
  const take = async (kind: 'checkpoint' | 'savepoint'): Promise<{ snap: KeyedStateSnapshot; ms: number }> => {
    storage.beginCheckpoint({ id: ++id, kind, timestamp: Date.now() });
    const t0 = performance.now();
    const snap = await backend.snapshot(id)();
    return { snap, ms: performance.now() - t0 };
  };
  try {
    const table = backend.table<Counter>('counts');
    const loadRate = await backendLoad(table, keys);
    // The package's own best batched put rate, same keys and values, same run: the ceiling for
    // loads and restores (a restore is one put per key through the same native write path).
    const rawLoc = join(dir, 'raw');
    const hand = await HandRocks.open(rawLoc);
    const rawRate = await handLoad(hand, probeKey, keys);
    await hand.close();
    await rm(rawLoc, { recursive: true, force: true });
    figures.push({
      section: SECTION,
      name: `load ${label} keys`,
      value: loadRate,
      unit: 'puts/s',
      baseline: { name: 'rocksdb package, best batched puts', value: rawRate },
      ratio: loadRate / rawRate,
    });
    const base = await take('checkpoint'); // the chain's full base
    const random = rng(5);
    for (let i = 0; i < changed; i += 10_000) {
      const batch: Array<readonly [string, Counter | undefined]> = [];
      for (let j = i; j < Math.min(changed, i + 10_000); j++) {
        const k = probeKey(Math.floor(random() * keys));
        batch.push([k, j % 10 === 0 ? undefined : { n: -1, sum: j }]);
      }
      await table.writeMany(batch);
    }
    const delta = await take('checkpoint');
    const full = await take('savepoint'); // self-contained, everything
    const mb = (b: number) => b / 2 ** 20;
    figures.push(
      {
        section: SECTION,
        name: `full checkpoint, ${label} keys`,
        value: full.ms,
        unit: 'ms',
        note: `${mb(full.snap.checkpointedBytes).toFixed(1)} MB, ${Math.round(keys / (full.ms / 1000)).toLocaleString('en-US')} keys/s, async part; chain base ${base.ms.toFixed(0)} ms`,
      },
      {
        section: SECTION,
        name: `incremental checkpoint bytes, 1% of keys changed`,
        value: mb(delta.snap.checkpointedBytes),
        unit: 'MB',
        baseline: { name: 'full checkpoint', value: mb(full.snap.checkpointedBytes) },
        ratio: delta.snap.checkpointedBytes / full.snap.checkpointedBytes,
        target: '<= 2% of full for 1% changed',
        met: delta.snap.checkpointedBytes / full.snap.checkpointedBytes <= 0.02,
        note: `${delta.ms.toFixed(0)} ms, chain of ${delta.snap.files?.length ?? 0} files`,
      },
    );
    const restoreRates: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const fresh = await makeBackend(dir, storage, `restore-${r}`);
      try {
        const t0 = performance.now();
        await fresh.restore([full.snap], RANGE);
        restoreRates.push(keys / ((performance.now() - t0) / 1000));
      } finally {
        await fresh.dispose();
      }
    }
    const restore = median(restoreRates);
    figures.push({
      section: SECTION,
      name: `restore ${label} keys from a full checkpoint`,
      value: restore,
      unit: 'keys/s',
      baseline: { name: 'rocksdb package, best batched puts (same keys)', value: rawRate, unit: 'puts/s' },
      ratio: restore / rawRate,
      target: '>= 1,000,000 keys/s',
      met: restore >= 1_000_000,
      samples: restoreRates,
    });
  } finally {
    await backend.dispose();
  }
  return figures;
}

export async function rocksdbSection(opts: BenchOptions): Promise<BenchFigure[]> {
  return [...(await againstHandLoop(opts)), ...(await checkpointsAndRestore(opts))];
}
