/**
 * Bench section 'Latency': event in to result committed. This process appends order events to a
 * JSONL file at a fixed rate (`ts` = the wall clock at the append: "event in"); the job follows the
 * file (source.file, follow) -> keyed tumbling window of 1 s (no allowed out-of-orderness) -> file
 * sink, with a checkpoint every second (fs state); the sink's 2PC makes a window's result visible
 * when the checkpoint after it completes. The bench polls the sink folder every 5 ms and, for each
 * event, takes the time from its append to its window's row showing up in a committed file.
 *
 * The baseline is the protocol's floor for the same events: the wait until the event's window
 * ends, plus half a checkpoint interval (the mean wait for the next checkpoint). The ratio says
 * how much the engine adds on top: follow-mode polling, batching, the checkpoint itself, renames.
 */
import { appendFileSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { NormalizedJob } from '../engine/graph/types.ts';
import { validateJob } from '../engine/graph/validate.ts';
import { startJob } from '../engine/runtime/job/job-runner.ts';
import { median, type BenchFigure, type BenchOptions } from './report.ts';

const WINDOW_MS = 1000;
const CHECKPOINT_MS = 1000;
const RATE = 1000;
const TICK_MS = 10;

function latencyJob(baseDir: string, outDir: string): NormalizedJob {
  const v = validateJob(
    {
      format: 'weir.job/v1',
      name: 'bench-latency',
      settings: { parallelism: 1, stateBackend: 'fs', checkpointing: { interval: CHECKPOINT_MS, dir: 'checkpoints' } },
      nodes: [
        {
          id: 'in',
          type: 'source.file',
          config: {
            path: 'in',
            format: 'jsonl',
            follow: true,
            columns: { k: 'STRING', amount: 'DOUBLE', ts: 'BIGINT' },
            eventTime: { field: 'ts', maxOutOfOrderness: 0 },
          },
        },
        {
          id: 'w',
          type: 'window',
          config: { keyBy: 'k', window: { kind: 'tumbling', size: WINDOW_MS }, aggregates: 'COUNT(*) AS n' },
        },
        { id: 'out', type: 'sink.file', config: { path: outDir, format: 'jsonl' } },
      ],
      edges: [
        { from: 'in', to: 'w' },
        { from: 'w', to: 'out' },
      ],
    },
    { baseDir },
  );
  if (!v.ok) throw new Error(v.problems.map((p) => `${p.path}: ${p.message}`).join('\n'));
  return v.job;
}

/** Committed JSON lines under `dir` not seen yet (hidden names are transactions in progress). */
function newRows(dir: string, seen: Set<string>): Array<{ window_start: string; k: string; n: number }> {
  const rows: Array<{ window_start: string; k: string; n: number }> = [];
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    return rows;
  }
  for (const name of names) {
    if (name.startsWith('.') || name.startsWith('_')) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) {
      rows.push(...newRows(p, seen));
      continue;
    }
    if (seen.has(p)) continue;
    seen.add(p);
    for (const line of readFileSync(p, 'utf8').split('\n')) if (line) rows.push(JSON.parse(line));
  }
  return rows;
}

interface RoundResult {
  latencies: number[];
  floors: number[];
}

async function round(dir: string, tag: string, seconds: number): Promise<RoundResult> {
  const base = join(dir, tag);
  mkdirSync(join(base, 'in'), { recursive: true });
  const input = join(base, 'in', 'events.jsonl');
  writeFileSync(input, '');
  const outDir = join(base, 'out');
  let running!: () => void;
  const isRunning = new Promise<void>((r) => (running = r));
  const handle = await startJob({
    job: latencyJob(base, 'out'),
    onEvent: (e) => {
      if (e.type === 'job.status' && e.status === 'running') running();
    },
  });
  await isRunning;
  // Each window's events: their append times, by window start and key.
  const pending = new Map<string, number[]>();
  const latencies: number[] = [],
    floors: number[] = [];
  const seen = new Set<string>();
  const poll = setInterval(() => {
    const now = Date.now();
    for (const row of newRows(outDir, seen)) {
      const start = Date.parse(row.window_start);
      const ins = pending.get(`${start}|${row.k}`) ?? [];
      pending.delete(`${start}|${row.k}`);
      for (const t of ins) {
        latencies.push(now - t);
        floors.push(start + WINDOW_MS - t + CHECKPOINT_MS / 2);
      }
    }
  }, 5);
  const end = Date.now() + seconds * 1000;
  let seq = 0;
  while (Date.now() < end) {
    let text = '';
    const t = Date.now();
    for (let i = 0; i < (RATE * TICK_MS) / 1000; i++, seq++) {
      const k = `k${seq % 4}`;
      text += `{"k":"${k}","amount":${seq % 100},"ts":${t}}\n`;
      const start = t - (t % WINDOW_MS);
      const key = `${start}|${k}`;
      const list = pending.get(key);
      if (list) list.push(t);
      else pending.set(key, [t]);
    }
    appendFileSync(input, text);
    await new Promise((r) => setTimeout(r, TICK_MS));
  }
  // Windows still open at the end never close (no later event): wait for the closed ones only.
  const lastClosed = Date.now() - (Date.now() % WINDOW_MS) - WINDOW_MS;
  const deadline = Date.now() + 4 * CHECKPOINT_MS;
  const open = () => [...pending.keys()].some((k) => Number(k.split('|')[0]) < lastClosed);
  while (open() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  clearInterval(poll);
  await handle.stop();
  await handle.done;
  return { latencies, floors };
}

export async function run(opts: BenchOptions): Promise<BenchFigure[]> {
  const rounds = opts.quick ? 1 : 3;
  const seconds = opts.quick ? 4 : 12;
  const med: number[] = [],
    p99: number[] = [],
    floorMed: number[] = [],
    floorP99: number[] = [];
  let events = 0;
  for (let r = 0; r < rounds; r++) {
    const got = await round(opts.dir, `r${r}`, seconds);
    if (got.latencies.length === 0) throw new Error('latency bench: no result became visible');
    med.push(median(got.latencies));
    p99.push(quantile(got.latencies, 0.99));
    floorMed.push(median(got.floors));
    floorP99.push(quantile(got.floors, 0.99));
    events += got.latencies.length;
  }
  const setup = `${RATE} events/s, 1 s windows, 1 s checkpoints`;
  const fig = (name: string, xs: number[], floor: number[]): BenchFigure => ({
    section: 'Latency',
    name: `event in -> result committed, ${name} (${setup})`,
    value: median(xs),
    unit: 'ms',
    baseline: { name: 'window wait + half a checkpoint interval (the floor)', value: median(floor) },
    ratio: median(xs) / median(floor),
    samples: xs,
    note: `${events} events over ${rounds} round(s)`,
  });
  return [fig('median', med, floorMed), fig('p99', p99, floorP99)];
}

function quantile(xs: number[], q: number): number {
  const a = [...xs].sort((x, y) => x - y);
  return a[Math.min(a.length - 1, Math.floor(q * a.length))];
}
