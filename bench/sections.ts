/**
 * The bench sections `npm run bench` runs, in order. A section is a module exporting
 * `run(opts: BenchOptions): Promise<BenchFigure[]>` (bench/report.ts); adding one is one line here.
 * `--only a,b` runs the named ones; the flags below are shorthands for section names.
 */
import type { BenchSection } from './report.ts';

export interface SectionEntry {
  name: string;
  load: () => Promise<{ run: BenchSection }>;
  /** Left out of `--quick` (which must stay under a minute) unless named with --only or a flag. */
  slow?: boolean;
}

export const SECTIONS: SectionEntry[] = [
  // Whole processes of the compiled CLI and task process next to `node -e 0`: ~15 s.
  { name: 'startup', load: () => import('./startup.ts') },
  { name: 'engine', load: () => import('./engine-ratio.ts') },
  { name: 'file-source', load: () => import('./file-source.ts') },
  { name: 'latency', load: () => import('./latency.ts') },
  // Source -> 500 and 5,000 map nodes -> sink: validation, planning and a run, as a ratio: ~30 s.
  { name: 'large-graphs', load: () => import('./large-graphs.ts') },
  // Starts `weir serve` and Chromium, loads a 200-node job per round: ~20-40 s on its own.
  { name: 'designer', load: () => import('./designer.ts'), slow: true },
  // Checkpoint overhead per backend, RocksDB against its hand loop, restore, memory, growth to 10M
  // keys: ~30 s quick, ~20 min full (bench/state.ts).
  { name: 'state', load: () => import('./state.ts'), slow: true },
  // Every examples/nexmark query on the heap and RocksDB backends, Weir next to Flink's MiniCluster
  // on the same event files (Weir's Flink runner, `npm run flink:build`): ~30-50 min on a loaded machine.
  { name: 'nexmark', load: () => import('./nexmark.ts'), slow: true },
];

/** Command-line flags naming a list of sections (kept from the bench's earlier options). */
export const FLAG_SECTIONS: Record<string, string[]> = {
  checkpoints: ['state'],
  rocksdb: ['state'],
  designer: ['designer'],
  latency: ['latency'],
  'file-source': ['file-source'],
  nexmark: ['nexmark'],
  startup: ['startup'],
  'large-graphs': ['large-graphs'],
};
