/**
 * Bench sections 'Memory' (issue 14 item 7) and 'Growth' (item 9): every point is a fresh process
 * (bench/state-probe.ts) so its peak RSS is its own. Keyed state of 10K, 100K, 1M (and 10M in the
 * full run) keys per backend, at parallelism 1 and 2 (two probe processes sharing the key space,
 * run at once on the 2 cores: throughput is their sum, memory their summed peaks).
 *
 * The heap backends run with a task heap of `HEAP_MB` (--max-old-space-size): at 10M keys their
 * state cannot fit, and what is measured is that they fail clearly (HeapStateLimitError naming the
 * operator and the limit) instead of thrashing in garbage collection.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchFigure, BenchOptions } from './report.ts';
import { median } from './report.ts';
import type { ProbeRequest, ProbeResult } from './state-probe.ts';
import type { StateBackendKind } from '../engine/graph/types.ts';

const BACKENDS: StateBackendKind[] = ['memory', 'fs', 'rocksdb'];
const HEAP_MB = 1024;

function runProbe(req: ProbeRequest): Promise<ProbeResult> {
  const script = fileURLToPath(new URL('./state-probe.ts', import.meta.url));
  const args = ['--import', import.meta.resolve('tsx'), `--max-old-space-size=${HEAP_MB}`, script, JSON.stringify(req)];
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { maxBuffer: 1 << 20 }, (err, stdout, stderr) => {
      const line = stdout.trim().split('\n').pop() ?? '';
      try {
        resolve(JSON.parse(line) as ProbeResult);
      } catch {
        reject(new Error(`state probe ${JSON.stringify(req)} failed: ${err?.message ?? ''} ${stderr.slice(-2000)}`));
      }
    });
  });
}

/** Parallelism p: p probe processes at once, each owning 1/p of the keys. */
async function point(
  backend: StateBackendKind,
  keys: number,
  parallelism: number,
  seconds: number,
  dir: string,
): Promise<{ updatesPerSec: number; loadPerSec: number; rssMB: number; stateMB: number; failed?: ProbeResult }> {
  const runs = await Promise.all(
    Array.from({ length: parallelism }, (_, subtask) =>
      runProbe({
        backend,
        keys,
        seconds,
        dir: join(dir, `${backend}-${keys}-${parallelism}-${subtask}`),
        subtask,
        parallelism,
      }),
    ),
  );
  const failed = runs.find((r) => r.error);
  return {
    updatesPerSec: runs.reduce((s, r) => s + r.updatesPerSec, 0),
    loadPerSec: runs.reduce((s, r) => s + r.loadPerSec, 0),
    rssMB: runs.reduce((s, r) => s + r.peakRssMB, 0),
    stateMB: runs.reduce((s, r) => s + r.peakRssMB - r.baseRssMB, 0),
    failed,
  };
}

/** Item 7: peak memory per backend at 1M keys (100K in --quick), median of the rounds. */
export async function memorySection(opts: BenchOptions): Promise<BenchFigure[]> {
  const keys = opts.quick ? 100_000 : 1_000_000;
  const rounds = opts.quick ? 1 : 3;
  // The state's memory: peak RSS less the probe process's RSS before the backend existed (Node,
  // tsx and the engine's modules, ~90 MB, the same for every backend).
  const rss = new Map<StateBackendKind, number[]>();
  const raw = new Map<StateBackendKind, number[]>();
  for (let r = 0; r < rounds; r++)
    for (const b of BACKENDS) {
      const p = await point(b, keys, 1, 1, join(opts.dir, `mem-${r}`));
      if (p.failed) throw new Error(`memory probe ${b}: ${p.failed.error}`);
      rss.set(b, [...(rss.get(b) ?? []), p.stateMB]);
      raw.set(b, [...(raw.get(b) ?? []), p.rssMB]);
    }
  const heap = median(rss.get('memory')!);
  const label = keys >= 1e6 ? `${keys / 1e6}M` : `${keys / 1e3}K`;
  return BACKENDS.map((b) => {
    const v = median(rss.get(b)!);
    const f: BenchFigure = {
      section: 'Memory',
      name: `${b} state memory (peak RSS above the bare process), ${label} keys`,
      value: v,
      unit: 'MB',
      samples: rss.get(b),
      note: `peak RSS ${Math.round(median(raw.get(b)!))} MB`,
    };
    if (b === 'rocksdb') {
      f.baseline = { name: `memory backend, ${label} keys`, value: heap };
      f.ratio = v / heap;
      f.target = 'far below the heap backends (<= 0.5 of memory)';
      f.met = f.ratio <= 0.5;
    }
    return f;
  });
}

/** Item 9: throughput and peak memory as state grows, per backend, parallelism 1 and 2. */
export async function growthSection(opts: BenchOptions): Promise<BenchFigure[]> {
  const sizes = opts.quick ? [10_000, 100_000] : [10_000, 100_000, 1_000_000, 10_000_000];
  const seconds = opts.quick ? 0.5 : 3;
  const figures: BenchFigure[] = [];
  const label = (k: number) => (k >= 1e6 ? `${k / 1e6}M` : `${k / 1e3}K`);
  for (const b of BACKENDS) {
    let first: number | null = null;
    for (const keys of sizes) {
      for (const parallelism of opts.quick ? [1] : [1, 2]) {
        const p = await point(b, keys, parallelism, seconds, join(opts.dir, 'growth'));
        const name = `${b} ${label(keys)} keys, parallelism ${parallelism}`;
        if (p.failed) {
          const clear = p.failed.errorName === 'HeapStateLimitError';
          figures.push({
            section: 'Growth',
            name: `${name}: fails`,
            value: p.failed.failedAfterS ?? NaN,
            unit: 's to fail',
            target: b === 'rocksdb' ? 'carries the state' : 'fails clearly (HeapStateLimitError), does not thrash',
            met: b !== 'rocksdb' && clear,
            note: `peak RSS ${Math.round(p.rssMB)} MB (state ${Math.round(p.stateMB)} MB); ${p.failed.error?.slice(0, 200)}`,
          });
          continue;
        }
        if (parallelism === 1 && first === null) first = p.updatesPerSec;
        figures.push({
          section: 'Growth',
          name,
          value: p.updatesPerSec,
          unit: 'updates/s',
          baseline: first !== null ? { name: `${b} ${label(sizes[0])} keys, parallelism 1`, value: first } : undefined,
          ratio: first !== null ? p.updatesPerSec / first : undefined,
          note: `peak RSS ${Math.round(p.rssMB)} MB (state ${Math.round(p.stateMB)} MB), load ${Math.round(p.loadPerSec).toLocaleString('en-US')} puts/s`,
        });
      }
    }
  }
  return figures;
}
