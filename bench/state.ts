/**
 * The state-backend and checkpoint part of `npm run bench` (issue 14 items 3, 4, 5, 7, 9):
 * `run(opts)` returns the figures of sections 'Checkpoint overhead', 'RocksDB', 'Heap snapshots',
 * 'Memory' and 'Growth' (bench/report.ts shape). `--quick` keeps it to small states and single rounds; the
 * 10M-key growth point runs only in the full bench.
 *
 * Alone: node --import tsx bench/state.ts [--quick] [--only checkpoints,rocksdb,heap,memory,growth]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { BenchFigure, BenchOptions } from './report.ts';
import { toMarkdown, machine } from './report.ts';
import { checkpointOverheadSection } from './state-checkpoints.ts';
import { rocksdbSection } from './state-rocksdb.ts';
import { growthSection, memorySection } from './state-growth.ts';
import { heapSnapshotSection } from './state-heap.ts';

const PARTS = {
  checkpoints: checkpointOverheadSection,
  rocksdb: rocksdbSection,
  heap: heapSnapshotSection,
  memory: memorySection,
  growth: growthSection,
} as const;
type Part = keyof typeof PARTS;

export async function run(opts: BenchOptions, only?: readonly Part[]): Promise<BenchFigure[]> {
  const figures: BenchFigure[] = [];
  for (const [name, section] of Object.entries(PARTS) as Array<[Part, (o: BenchOptions) => Promise<BenchFigure[]>]>) {
    if (only && !only.includes(name)) continue;
    const t0 = performance.now();
    figures.push(...(await section(opts)));
    // Progress on stderr: the full run takes minutes (the 10M-key growth points most of them).
    console.error(`bench/state: ${name} done in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  }
  return figures;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { quick: { type: 'boolean' }, only: { type: 'string' } } });
  const dir = mkdtempSync(join(tmpdir(), 'weir-bench-state-'));
  const t0 = performance.now();
  const only = values.only ? (values.only.split(',') as Part[]) : undefined;
  run({ quick: !!values.quick, dir }, only)
    .then((figures) => {
      console.log(toMarkdown(figures, { date: new Date().toISOString(), quick: !!values.quick, machine: machine() }));
      console.log(JSON.stringify(figures));
      console.log(`(${((performance.now() - t0) / 1000).toFixed(1)} s)`);
    })
    .catch((e: unknown) => {
      console.error(e);
      process.exitCode = 1;
    })
    .finally(() => rmSync(dir, { recursive: true, force: true }));
}
