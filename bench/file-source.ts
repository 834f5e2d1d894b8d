/**
 * Bench section 'File source': 1M out-of-order orders in a JSONL file, job = file source -> filter
 * (amount > 10) -> keyed tumbling window (10 s, per category, COUNT and exact DECIMAL SUM) -> file
 * sink, parallelism 1. Next to it, in the same run and on the same file: a hand-written
 * `JSON.parse` loop doing the same work, and DuckDB (batch SQL, same rows). Each side runs once per
 * round, alternating, and the figures are medians, so a busy machine slows every side alike.
 * The three must agree on the result (rows and total cents) or the section fails.
 *
 * The engine's figures are in process, from the task's `running` to `finishing`; the same job also
 * runs as a whole `weir run` process, spawn to exit (bench/weir-process.ts), which is what a user
 * waits for: start-up, planning, the task process's fork and teardown included.
 *
 * The engine also runs at parallelism 2, where two source subtasks read the file's byte-range
 * splits (engine/connectors/file-splits.ts), next to DuckDB's threads (2 on this machine).
 *
 * Run alone: `node --import tsx bench/file-source.ts [--quick]`.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { NormalizedJob, StateBackendKind } from '../engine/graph/types.ts';
import { validateJob } from '../engine/graph/validate.ts';
import { runEngine } from './engine-run.ts';
import { MIN_AMOUNT, WINDOW_MS, duckdbJob, handJsonLoop, type PeerResult } from './file-source-baselines.ts';
import { ORDERS_JITTER, writeOrders } from './orders-data.ts';
import { weirRunMs } from './weir-process.ts';
import { median, type BenchFigure, type BenchOptions } from './report.ts';

const SECTION = 'File source';

interface OrdersJobOptions {
  input: string;
  outDir: string;
  baseDir: string;
  backend: StateBackendKind;
  checkpointInterval: number | null;
  /** 1 unless given; at 2 the file's splits (8 MiB each) are read by two source subtasks. */
  parallelism?: number;
}

export function ordersJob(o: OrdersJobOptions): NormalizedJob {
  const v = validateJob(ordersDocument(o), { baseDir: o.baseDir });
  if (!v.ok) throw new Error(v.problems.map((p) => `${p.path}: ${p.message}`).join('\n'));
  return v.job;
}

/** The job as a user writes it (`weir run` reads this from a file). */
function ordersDocument(o: OrdersJobOptions) {
  return {
    format: 'weir.job/v1',
    name: 'bench-file-source',
    settings: {
      parallelism: o.parallelism ?? 1,
      stateBackend: o.backend,
      ...(o.checkpointInterval ? { checkpointing: { interval: o.checkpointInterval, dir: 'checkpoints' } } : {}),
    },
    nodes: [
      {
        id: 'orders',
        type: 'source.file',
        config: {
          path: o.input,
          format: 'jsonl',
          columns: { id: 'BIGINT', user: 'STRING', amount: 'DECIMAL(10, 2)', category: 'STRING', ts: 'BIGINT' },
          eventTime: { field: 'ts', maxOutOfOrderness: ORDERS_JITTER },
        },
      },
      { id: 'big', type: 'filter', config: { where: `amount > ${MIN_AMOUNT}` } },
      {
        id: 'w',
        type: 'window',
        config: {
          keyBy: 'category',
          window: { kind: 'tumbling', size: WINDOW_MS },
          aggregates: 'COUNT(*) AS n, SUM(amount) AS total',
        },
      },
      { id: 'out', type: 'sink.file', config: { path: o.outDir, format: 'jsonl' } },
    ],
    edges: [
      { from: 'orders', to: 'big' },
      { from: 'big', to: 'w' },
      { from: 'w', to: 'out' },
    ],
  };
}

/** Rows and total cents of every committed JSON line under `dir` (hidden files are in-progress parts). */
function sinkChecksum(dir: string): { rows: number; cents: number } {
  let rows = 0,
    cents = 0;
  for (const name of readdirSync(dir)) {
    if (name.startsWith('.') || name.startsWith('_')) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) {
      const sub = sinkChecksum(p);
      rows += sub.rows;
      cents += sub.cents;
      continue;
    }
    for (const line of readFileSync(p, 'utf8').split('\n')) {
      if (!line) continue;
      rows++;
      cents += Math.round((JSON.parse(line) as { total: number }).total * 100);
    }
  }
  return { rows, cents };
}

/** The same job as a whole `weir run` process, from spawn to exit (what a user waits for). */
function wholeRound(dir: string, input: string, tag: string, checkpointInterval: number | null): PeerResult {
  const outDir = `out-${tag}`;
  const backend = checkpointInterval ? 'fs' : 'memory';
  const jobFile = join(dir, `${tag}.job.json`);
  writeFileSync(jobFile, JSON.stringify(ordersDocument({ input, outDir, baseDir: dir, backend, checkpointInterval })));
  const ms = weirRunMs(jobFile, dir);
  const sum = sinkChecksum(join(dir, outDir));
  rmSync(join(dir, outDir), { recursive: true, force: true });
  rmSync(join(dir, 'checkpoints'), { recursive: true, force: true });
  return { ms, ...sum };
}

async function engineRound(
  dir: string,
  input: string,
  tag: string,
  checkpointInterval: number | null,
  parallelism = 1,
): Promise<PeerResult & { checkpoints: number }> {
  const outDir = `out-${tag}`;
  const backend = checkpointInterval ? 'fs' : 'memory';
  const r = await runEngine(ordersJob({ input, outDir, baseDir: dir, backend, checkpointInterval, parallelism }));
  const sum = sinkChecksum(join(dir, outDir));
  rmSync(join(dir, outDir), { recursive: true, force: true });
  return { ms: r.ms, checkpoints: r.checkpoints, ...sum };
}

export async function run(opts: BenchOptions): Promise<BenchFigure[]> {
  const count = opts.quick ? 150_000 : 1_000_000;
  const rounds = opts.quick ? 1 : 3;
  const input = join(opts.dir, 'orders.jsonl');
  const bytes = writeOrders(input, count);
  const t = {
    hand: [] as number[],
    engine: [] as number[],
    engine2: [] as number[],
    ckpt: [] as number[],
    whole: [] as number[],
    wholeCkpt: [] as number[],
    duck: [] as number[],
  };
  let checkpoints = 0,
    threads = 0;
  for (let round = 0; round < rounds; round++) {
    const hand = handJsonLoop(input, join(opts.dir, 'hand.jsonl'));
    const engine = await engineRound(opts.dir, input, `plain-${round}`, null);
    const ckpt = await engineRound(opts.dir, input, `ckpt-${round}`, 150);
    const engine2 = await engineRound(opts.dir, input, `p2-${round}`, null, 2);
    const whole = wholeRound(opts.dir, input, `whole-${round}`, null);
    const wholeCkpt = wholeRound(opts.dir, input, `whole-ckpt-${round}`, 150);
    const duck = await duckdbJob(input, join(opts.dir, 'duck.jsonl'));
    for (const [name, r] of Object.entries({ engine, ckpt, engine2, whole, wholeCkpt, duck }))
      if (r.rows !== hand.rows || r.cents !== hand.cents)
        throw new Error(
          `file-source bench: ${name} gave ${r.rows} rows / ${r.cents} cents, the hand loop ${hand.rows} / ${hand.cents}`,
        );
    t.hand.push(hand.ms);
    t.engine.push(engine.ms);
    t.engine2.push(engine2.ms);
    t.ckpt.push(ckpt.ms);
    t.whole.push(whole.ms);
    t.wholeCkpt.push(wholeCkpt.ms);
    t.duck.push(duck.ms);
    checkpoints = Math.max(checkpoints, ckpt.checkpoints);
    threads = duck.threads;
  }
  const rate = (ms: number) => count / (ms / 1000);
  const rates = (xs: number[]) => xs.map(rate);
  const hand = { name: 'hand JSON.parse loop', value: rate(median(t.hand)), unit: 'events/s' };
  const duck = { name: `DuckDB read_json (${threads} threads)`, value: rate(median(t.duck)), unit: 'events/s' };
  const mb = (bytes / 2 ** 20).toFixed(0);
  const plain = rate(median(t.engine));
  const withCkpt = rate(median(t.ckpt));
  const parallel = rate(median(t.engine2));
  const whole = rate(median(t.whole));
  const wholeCkpt = rate(median(t.wholeCkpt));
  return [
    {
      section: SECTION,
      name: `engine, ${count.toLocaleString('en-US')} orders (${mb} MB JSONL), heap state, no checkpoints`,
      value: plain,
      unit: 'events/s',
      baseline: hand,
      ratio: plain / hand.value,
      target: '>= 0.6 of the hand loop',
      met: plain / hand.value >= 0.6,
      samples: rates(t.engine),
    },
    {
      section: SECTION,
      name: 'engine, fs state, checkpoints every 150 ms',
      value: withCkpt,
      unit: 'events/s',
      baseline: hand,
      ratio: withCkpt / hand.value,
      target: '>= 0.5 of the hand loop',
      met: withCkpt / hand.value >= 0.5,
      samples: rates(t.ckpt),
      note: `${checkpoints} checkpoints`,
    },
    {
      section: SECTION,
      name: 'whole `weir run` process, spawn to exit, heap state, no checkpoints',
      value: whole,
      unit: 'events/s',
      baseline: hand,
      ratio: whole / hand.value,
      samples: rates(t.whole),
      note: 'start-up, planning, the task process and teardown included',
    },
    {
      section: SECTION,
      name: 'whole `weir run` process, fs state, checkpoints every 150 ms',
      value: wholeCkpt,
      unit: 'events/s',
      baseline: hand,
      ratio: wholeCkpt / hand.value,
      samples: rates(t.wholeCkpt),
    },
    {
      section: SECTION,
      name: 'engine next to DuckDB (batch SQL, same rows)',
      value: plain,
      unit: 'events/s',
      baseline: duck,
      ratio: plain / duck.value,
      target: '>= 0.5 of DuckDB (issue 27)',
      met: plain / duck.value >= 0.5,
      samples: rates(t.duck),
    },
    {
      section: SECTION,
      name: 'engine at parallelism 2 (the file read in 8 MiB splits by 2 source subtasks) next to DuckDB',
      value: parallel,
      unit: 'events/s',
      baseline: duck,
      ratio: parallel / duck.value,
      target: '>= 0.5 of DuckDB (issue 27)',
      met: parallel / duck.value >= 0.5,
      samples: rates(t.engine2),
    },
    {
      section: SECTION,
      name: 'hand JSON.parse loop next to DuckDB',
      value: hand.value,
      unit: 'events/s',
      baseline: duck,
      ratio: hand.value / duck.value,
      samples: rates(t.hand),
    },
  ];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const dir = mkdtempSync(join(tmpdir(), 'weir-bench-fs-'));
  try {
    const figures = await run({ quick: process.argv.includes('--quick'), dir });
    for (const f of figures)
      console.log(
        `${f.name}: ${Math.round(f.value).toLocaleString('en-US')} ${f.unit}` +
          (f.baseline ? ` | ${f.baseline.name} ${Math.round(f.baseline.value).toLocaleString('en-US')}` : '') +
          (f.ratio !== undefined ? ` | ratio ${f.ratio.toFixed(2)}` : '') +
          (f.samples ? ` | samples ${f.samples.map((s) => Math.round(s)).join(', ')}` : ''),
      );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
