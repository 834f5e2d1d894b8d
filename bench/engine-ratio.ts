/**
 * Bench section 'Engine': a keyed tumbling window (100 keys, 10 s windows) over generated events
 * through the real engine (host + forked task process, heap state, parallelism 1), next to a
 * hand-written single loop doing the same aggregation in this same process (bench/hand-loop.ts).
 * The two alternate, round by round; the figures are medians (one round with --quick).
 */
import { join } from 'node:path';
import { generatorParams } from '../engine/connectors/generator-source.ts';
import { GENERATOR, benchJob, runEngine } from './engine-run.ts';
import { handLoop } from './hand-loop.ts';
import { median, type BenchFigure, type BenchOptions } from './report.ts';

export async function run(opts: BenchOptions): Promise<BenchFigure[]> {
  const count = opts.quick ? 500_000 : 5_000_000;
  const rounds = opts.quick ? 1 : 3;
  const keys = 100,
    windowMs = 10_000;
  const hand: number[] = [],
    engine: number[] = [];
  for (let round = 0; round < rounds; round++) {
    hand.push(
      handLoop(generatorParams({ ...GENERATOR, keys, count }), count, windowMs, join(opts.dir, 'hand.jsonl')).ms,
    );
    const job = benchJob({
      count,
      keys,
      windowMs,
      outDir: `out-engine-${round}`,
      baseDir: opts.dir,
      backend: 'memory',
      checkpointInterval: null,
    });
    engine.push((await runEngine(job)).ms);
  }
  const rate = (ms: number) => count / (ms / 1000);
  const value = rate(median(engine));
  const base = rate(median(hand));
  return [
    {
      section: 'Engine',
      name: `keyed tumbling window, ${count.toLocaleString('en-US')} generated events, ${keys} keys, heap state`,
      value,
      unit: 'events/s',
      baseline: { name: 'hand-written loop', value: base },
      ratio: value / base,
      target: '>= 0.5 of the hand loop',
      met: value / base >= 0.5,
      samples: engine.map(rate),
    },
  ];
}
