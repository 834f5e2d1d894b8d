/**
 * Bench section 'Heap snapshots' (issue 27): the synchronous part of a `memory` backend checkpoint,
 * which holds up the task while it runs (the barrier waits for it), at 1M keys (100K in --quick)
 * with 1% of the keys written since the previous checkpoint. Copy-on-write snapshots (heap.ts)
 * copy only those; the baseline, measured in the same run on the same state, is the full deep copy
 * the synchronous part made before (`structuredClone` of every entry). Medians of the rounds.
 */
import { HeapStateBackend } from '../engine/state/heap.ts';
import { MemoryCheckpointWorkerStorage } from '../engine/checkpoint/memory-worker-storage.ts';
import type { BenchFigure, BenchOptions } from './report.ts';
import { median } from './report.ts';
import { probeKey, rng, type Counter } from './state-probe.ts';

export async function heapSnapshotSection(opts: BenchOptions): Promise<BenchFigure[]> {
  const keys = opts.quick ? 100_000 : 1_000_000;
  const rounds = opts.quick ? 3 : 5;
  const storage = new MemoryCheckpointWorkerStorage();
  const backend = new HeapStateBackend({ kind: 'memory', keyGroupRange: { start: 0, end: 127 }, storage });
  const table = backend.table<Counter>('counts');
  // The same entries outside the backend, for the baseline (reading them back through the backend
  // would hand every value out, and the next snapshot would copy them all).
  const mirror = new Map<string, Counter>();
  const write = async (batch: Array<readonly [string, Counter]>) => {
    await table.writeMany(batch);
    for (const [k, v] of batch) mirror.set(k, v);
  };
  for (let i = 0; i < keys; i += 10_000) {
    const batch: Array<readonly [string, Counter]> = [];
    for (let j = i; j < Math.min(keys, i + 10_000); j++) batch.push([probeKey(j), { n: 1, sum: j }]);
    await write(batch);
  }
  const random = rng(11);
  let id = 0;
  const first = performance.now();
  await backend.snapshot(++id)(); // the first snapshot copies everything
  const firstMs = performance.now() - first;
  const sync: number[] = [];
  const whole: number[] = [];
  const full: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const batch: Array<readonly [string, Counter]> = [];
    for (let i = 0; i < keys / 100; i++) batch.push([probeKey(Math.floor(random() * keys)), { n: r, sum: i }]);
    await write(batch);
    const t0 = performance.now();
    const asyncPart = backend.snapshot(++id);
    const t1 = performance.now();
    await asyncPart();
    whole.push(performance.now() - t0);
    sync.push(t1 - t0);
    // What the synchronous part did before copy-on-write: a deep copy of every entry.
    const c0 = performance.now();
    structuredClone([...mirror.entries()]);
    full.push(performance.now() - c0);
  }
  await backend.dispose();
  const label = keys >= 1e6 ? `${keys / 1e6}M` : `${keys / 1e3}K`;
  const v = median(sync);
  const base = median(full);
  return [
    {
      section: 'Heap snapshots',
      name: `memory backend, synchronous part of a checkpoint, ${label} keys, 1% written since the last`,
      value: v,
      unit: 'ms',
      baseline: { name: 'full deep copy of the state (the synchronous part before copy-on-write)', value: base },
      ratio: v / base,
      target: '<= 0.1 of the full copy',
      met: v / base <= 0.1,
      samples: sync,
      note: `whole snapshot (sync + async serialization) ${median(whole).toFixed(0)} ms; first snapshot (copies everything) ${firstMs.toFixed(0)} ms`,
    },
  ];
}
