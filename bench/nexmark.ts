/**
 * Nexmark: events per second per core of every query in examples/nexmark (qN.weir.json, so queries
 * added there are measured too), on the heap (`fs`: heap state, checkpoints to files) and RocksDB
 * (incremental checkpoints) backends, next to Flink's published per-core figure for the query
 * (nexmark-baselines.ts). Targets (issue 14): at least 10x Flink per core on the heap backend, at
 * least 1x on RocksDB.
 *
 * Each run is the query's own document with its source set to `events` events of seed 0, at
 * parallelism 1 (one task process: one core for the operators; the job master's process is idle
 * apart from checkpoint coordination), a checkpoint every 10 s (Flink's Nexmark runs checkpoint
 * every 3 minutes), and its file sink replaced by a `sink.preview` keeping one row: Flink's Nexmark
 * writes to `blackhole` sinks, which Weir does not have. Timed from the task process's
 * `running` to `finishing` (bench/nexmark-run.ts), so process start-up is not counted.
 *
 * "Per core" is events per CPU-second of Weir's processes (task process and job master, from
 * /proc), not per wall-clock second: on a machine shared with other work, wall time measures the
 * neighbours. The wall-clock rate is in each figure's note. Flink's figure is events per second
 * divided by the cores its processes used (the README's Cores column), the same quantity. Median
 * of `rounds` runs (>= 3; 1 with --quick and fewer events).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { JobDocument, StateBackendKind } from '../engine/graph/types.ts';
import { validateJob } from '../engine/graph/validate.ts';
import { timedRun } from './nexmark-run.ts';
import { FLINK_BASELINE_NAME, FLINK_PER_CORE } from './nexmark-baselines.ts';
import { median, type BenchFigure, type BenchOptions } from './report.ts';

const EXAMPLES = fileURLToPath(new URL('../examples/nexmark/', import.meta.url));
const SECTION = 'Nexmark';

export interface NexmarkBenchOptions extends BenchOptions {
  /** Events per run (default: 10 s of Flink's per-core throughput for the query; 100,000 with --quick). */
  events?: number;
  rounds?: number;
  /** Only these queries (e.g. ['q0', 'q5']); default every qN.weir.json. */
  queries?: string[];
  backends?: Array<'heap' | 'rocksdb'>;
  /** Progress lines (the standalone runner prints them). */
  log?: (line: string) => void;
}

const BACKENDS: Record<'heap' | 'rocksdb', { kind: StateBackendKind; target: number }> = {
  heap: { kind: 'fs', target: 10 },
  rocksdb: { kind: 'rocksdb', target: 1 },
};

export function nexmarkQueries(): string[] {
  return readdirSync(EXAMPLES)
    .map((f) => /^(q\d+)\.weir\.json$/.exec(f)?.[1])
    .filter((q): q is string => q !== undefined)
    .sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)));
}

/** The query's document set up for one bench run. */
function benchDocument(query: string, events: number, backend: StateBackendKind, sinkDir: string): JobDocument {
  const doc = JSON.parse(readFileSync(join(EXAMPLES, `${query}.weir.json`), 'utf8')) as JobDocument;
  for (const n of doc.nodes) {
    if (n.type === 'source.nexmark') n.config = { ...n.config, events, seed: 0 };
    // A side input (q13's data/side_input.csv) is read where the document lives.
    if (n.type === 'source.file') n.config = { ...n.config, path: resolve(EXAMPLES, n.config.path) };
  }
  // Flink's Nexmark writes to blackhole sinks; Weir's nearest is a preview sink keeping one row.
  doc.nodes = doc.nodes.map((n) =>
    n.type === 'sink.file'
      ? { id: n.id, type: 'sink.preview', ...(n.name ? { name: n.name } : {}), config: { limit: 1 } }
      : n,
  );
  doc.settings = {
    ...doc.settings,
    parallelism: 1,
    stateBackend: backend,
    checkpointing: {
      ...doc.settings?.checkpointing,
      interval: '10s',
      dir: join(sinkDir, 'checkpoints'),
      incremental: backend === 'rocksdb',
    },
  };
  return doc;
}

/**
 * Events per run: what Flink processes in 10 s on one core (at least 100,000), so every run is long
 * enough for the fixed costs (the first and last checkpoint, the sink's commit) to fade, and the
 * slow queries do not take minutes. 1,000,000 for a query without a published figure.
 */
function defaultEvents(flinkPerCore: number | undefined): number {
  if (!flinkPerCore) return 1_000_000;
  return Math.max(100_000, Math.round((flinkPerCore * 10) / 100_000) * 100_000);
}

export async function run(opts: NexmarkBenchOptions): Promise<BenchFigure[]> {
  const rounds = Math.max(1, opts.rounds ?? (opts.quick ? 1 : 3));
  const log = opts.log ?? (() => {});
  const figures: BenchFigure[] = [];
  let runNo = 0;
  for (const query of opts.queries ?? nexmarkQueries()) {
    for (const name of opts.backends ?? (['heap', 'rocksdb'] as const)) {
      const { kind, target } = BACKENDS[name];
      const flink = FLINK_PER_CORE[query];
      const events = opts.events ?? (opts.quick ? 100_000 : defaultEvents(flink));
      const samples: number[] = [];
      const wallRates: number[] = [];
      let failure: string | null = null;
      for (let round = 0; round < rounds && failure === null; round++) {
        const dir = join(opts.dir, `nexmark-${query}-${name}-${runNo++}`);
        const v = validateJob(benchDocument(query, events, kind, dir), { baseDir: opts.dir });
        if (!v.ok) {
          failure = `invalid: ${v.problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`;
          break;
        }
        try {
          const r = await timedRun(v.job);
          const wall = events / (r.wallMs / 1000);
          const cpuSeconds = r.cpu ? r.cpu.tasks + r.cpu.master : null;
          // Per core: events per CPU-second of Weir's processes; wall-clock rate where /proc is missing.
          samples.push(cpuSeconds ? events / cpuSeconds : wall);
          wallRates.push(wall);
          log(
            `  ${query} ${name} round ${round + 1}: ${Math.round(samples[samples.length - 1])} events/CPU-s` +
              (r.cpu ? ` (tasks ${r.cpu.tasks.toFixed(2)} s, master ${r.cpu.master.toFixed(2)} s CPU)` : '') +
              `, ${Math.round(wall)} events/s wall`,
          );
        } catch (e) {
          failure = (e as Error).message;
        }
      }
      const value = samples.length > 0 ? median(samples) : 0;
      const ratio = flink ? value / flink : undefined;
      figures.push({
        section: SECTION,
        name: `${query} ${name}`,
        value,
        unit: 'events/CPU-s',
        ...(flink ? { baseline: { name: FLINK_BASELINE_NAME, value: flink } } : {}),
        ...(ratio !== undefined ? { ratio, met: failure === null && ratio >= target } : {}),
        target: `>= ${target}x Flink per core`,
        samples,
        note:
          failure !== null
            ? `failed: ${failure}`
            : `${events.toLocaleString('en-US')} events, parallelism 1, median of ${samples.length}; ` +
              `${Math.round(median(wallRates)).toLocaleString('en-US')} events/s wall clock`,
      });
    }
  }
  return figures;
}
