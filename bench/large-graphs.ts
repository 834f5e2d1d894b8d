/**
 * Bench section 'Large graphs': a source, a chain of N map nodes and a file sink, for N = 500 and
 * N = 5,000: validation, planning and a run of 1,000 generated records, each timed. The figure is
 * the 5,000-node chain's cost next to the 500-node chain's (ratio): a linear engine stays near 10×
 * (less, since a run has fixed costs), a quadratic step shows as ~100×. Typing each operator's
 * input with its own walk up the chain made a 2,000-node run take ~100 s (issue 23 item 9).
 */
import { join } from 'node:path';
import type { JobDocument, JobEdge, JobNode } from '../engine/graph/types.ts';
import { validateJob } from '../engine/graph/validate.ts';
import { planJob } from '../engine/runtime/common/plan.ts';
import { startJob } from '../engine/runtime/job/job-runner.ts';
import { median, type BenchFigure, type BenchOptions } from './report.ts';

const SMALL = 500;
const LARGE = 5_000;
const RECORDS = 1_000;
/** The goal: planning and running 10× the nodes costs at most ~10× the time. */
const TARGET_RATIO = 10;
const PLAN_REPEATS = 9;

function chainJob(n: number, outDir: string): JobDocument {
  const nodes: JobNode[] = [{ id: 'gen', type: 'source.generator', config: { count: RECORDS } }];
  const edges: JobEdge[] = [];
  let prev = 'gen';
  for (let i = 0; i < n; i++) {
    const id = `m${i}`;
    nodes.push({ id, type: 'map', config: { select: 'key, value + 1 AS value, ts' } });
    edges.push({ from: prev, to: id });
    prev = id;
  }
  nodes.push({ id: 'out', type: 'sink.file', config: { path: outDir, format: 'jsonl' } });
  edges.push({ from: prev, to: 'out' });
  return {
    format: 'weir.job/v1',
    name: `chain-${n}`,
    settings: { parallelism: 1, stateBackend: 'memory' },
    nodes,
    edges,
  };
}

interface ChainTimes {
  validate: number;
  plan: number;
  run: number;
}

async function chainRound(n: number, dir: string): Promise<ChainTimes> {
  let t = performance.now();
  const v = validateJob(chainJob(n, join(dir, 'out')), { baseDir: dir });
  if (!v.ok) throw new Error(v.problems.map((p) => `${p.path}: ${p.message}`).join('\n'));
  const validate = performance.now() - t;
  // Planning takes milliseconds, where one GC pause doubles a sample: the median of several.
  const plans: number[] = [];
  for (let k = 0; k < PLAN_REPEATS; k++) {
    t = performance.now();
    planJob(v.job);
    plans.push(performance.now() - t);
  }
  const plan = median(plans);
  t = performance.now();
  const result = await (await startJob({ job: v.job })).done;
  if (result.status !== 'finished') throw new Error(`chain of ${n}: ${result.status} ${result.cause ?? ''}`);
  return { validate, plan, run: performance.now() - t };
}

export async function run(opts: BenchOptions): Promise<BenchFigure[]> {
  const rounds = opts.quick ? 1 : 3;
  const times = new Map<number, ChainTimes[]>([
    [SMALL, []],
    [LARGE, []],
  ]);
  for (let r = 0; r < rounds; r++) {
    for (const n of [SMALL, LARGE]) times.get(n)!.push(await chainRound(n, join(opts.dir, `chain-${n}-${r}`)));
  }
  const total = (x: ChainTimes) => x.validate + x.plan + x.run;
  const of = (n: number, f: (x: ChainTimes) => number) => median(times.get(n)!.map(f));
  /** The whole job against the target; its parts as ratios only (a linear part alone is ~10×). */
  const figure = (what: string, f: (x: ChainTimes) => number, held: boolean): BenchFigure => {
    const value = of(LARGE, f);
    const base = of(SMALL, f);
    const ratio = value / base;
    return {
      section: 'Large graphs',
      name: `${LARGE.toLocaleString('en-US')}-node map chain, ${what}`,
      value: Math.round(value * 10) / 10,
      unit: 'ms',
      baseline: { name: `${SMALL}-node map chain`, value: Math.round(base * 10) / 10, unit: 'ms' },
      ratio,
      ...(held
        ? { target: `<= ${TARGET_RATIO}× the ${SMALL}-node chain`, met: ratio <= TARGET_RATIO }
        : { note: `part of the total; ${LARGE / SMALL}× is linear, ${(LARGE / SMALL) ** 2}× quadratic` }),
      samples: times.get(LARGE)!.map((x) => Math.round(f(x))),
    };
  };
  return [
    figure(`validate + plan + run ${RECORDS.toLocaleString('en-US')} records`, total, true),
    figure('validate', (x) => x.validate, false),
    figure('plan', (x) => x.plan, false),
    figure(`run ${RECORDS.toLocaleString('en-US')} records`, (x) => x.run, false),
  ];
}
