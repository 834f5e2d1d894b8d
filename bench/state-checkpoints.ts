/**
 * Bench section 'Checkpoint overhead' (issue 14 item 3): the bench's keyed tumbling-window job
 * through the real engine (bench/engine-run.ts), per state backend, with a checkpoint every second
 * and without; runs alternate off/on so a busy machine's load falls on both. The figure is the
 * median throughput with checkpoints next to the median without, as a ratio. A second figure per
 * backend counts events per CPU-second of the task process (all its threads, from /proc): what
 * a checkpoint costs the task, which a loaded machine disturbs far less than wall-clock time.
 */
import type { BenchFigure, BenchOptions } from './report.ts';
import { median } from './report.ts';
import { benchJob, runEngine } from './engine-run.ts';
import type { StateBackendKind } from '../engine/graph/types.ts';

const BACKENDS: StateBackendKind[] = ['memory', 'fs', 'rocksdb'];

export async function checkpointOverheadSection(opts: BenchOptions): Promise<BenchFigure[]> {
  const rounds = opts.quick ? 1 : 3;
  const figures: BenchFigure[] = [];
  for (const backend of BACKENDS) {
    // Several checkpoints per run at each backend's speed (~4-5 s a run; ~1 s in --quick): the heap
    // backends run ~5M events/s on an idle machine, RocksDB ~0.7M.
    const count = Math.round((backend === 'rocksdb' ? 3_000_000 : 20_000_000) / (opts.quick ? 5 : 1));
    const off: number[] = [];
    const on: number[] = [];
    const cpuOff: number[] = [];
    const cpuOn: number[] = [];
    let checkpoints = 0;
    for (let r = 0; r < rounds; r++) {
      for (const interval of r % 2 ? [1000, null] : [null, 1000]) {
        const run = await runEngine(
          benchJob({
            count,
            keys: 100,
            windowMs: 10_000,
            outDir: `cp-${backend}-${r}-${interval ?? 'off'}`,
            baseDir: opts.dir,
            backend,
            checkpointInterval: interval,
          }),
        );
        (interval ? on : off).push(count / (run.ms / 1000));
        (interval ? cpuOn : cpuOff).push(count / run.taskCpuS);
        if (interval) checkpoints += run.checkpoints;
      }
    }
    const note = `${checkpoints} checkpoints in ${rounds} runs`;
    figures.push(overhead(`${backend}, a checkpoint every 1 s`, 'events/s', backend, on, off, note));
    if (cpuOn.every(Number.isFinite) && cpuOff.every(Number.isFinite))
      figures.push(
        overhead(
          `${backend}, a checkpoint every 1 s, per task CPU-second`,
          'events/CPU-s',
          backend,
          cpuOn,
          cpuOff,
          note,
        ),
      );
  }
  return figures;
}

/** Medians with checkpoints (`on`) next to without (`off`), as an overhead figure. */
function overhead(
  name: string,
  unit: string,
  backend: StateBackendKind,
  on: number[],
  off: number[],
  note: string,
): BenchFigure {
  const vOn = median(on);
  const vOff = median(off);
  return {
    section: 'Checkpoint overhead',
    name,
    value: vOn,
    unit,
    baseline: { name: `${backend}, no checkpoints`, value: vOff },
    ratio: vOn / vOff,
    target: '< 10% overhead (ratio >= 0.90)',
    met: vOn / vOff >= 0.9,
    samples: on,
    note: `overhead ${((1 - vOn / vOff) * 100).toFixed(1)}%; ${note}; without: ${off.map((x) => Math.round(x).toLocaleString('en-US')).join(', ')}`,
  };
}
