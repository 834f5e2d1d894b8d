/**
 * Nexmark, Weir next to Flink on the same machine: every query of examples/nexmark (qN.weir.json,
 * so queries added there are measured too) on the same generated event files, in Weir and in
 * Flink's local MiniCluster (Weir's Flink runner), parallelism 1, on the heap (`fs`: heap state,
 * checkpoints to files; Flink `hashmap`) and RocksDB (incremental checkpoints) backends.
 * Targets (issue 27): Weir at least 3x Flink's wall-clock throughput on the heap backend, at least
 * 1x on RocksDB, for every query.
 *
 * The events are generated once per size into person/auction/bid.jsonl (writeNexmarkFiles: the
 * rows `source.nexmark` emits for seed 0); each query reads them through file sources
 * (nexmark-file-jobs.ts), Weir with its `source.file`, Flink with the filesystem connector and json
 * format as Weir's exporter writes them. Both discard the results (`sink.blackhole` in Weir, its
 * export `blackhole` in Flink, as the Nexmark suite) and checkpoint every 10 s.
 *
 * Two figures per query and backend, each events per wall-clock second, Weir's over Flink's:
 * - whole process: `weir run JOB` from spawn to exit, against Flink's JVM and MiniCluster start
 *   plus the script from planning to its job's end (flink-scripts.ts);
 * - steady state: Weir in process from the task's `running` to `finishing` (nexmark-run.ts),
 *   against Flink from its last subtask RUNNING to its last FINISHED (the JobManager's
 *   timestamps, flink-scripts.ts).
 * One run each (a Flink JVM per backend runs every query's script in turn); the expensive queries
 * run on fewer events so the section takes minutes, not hours.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { writeNexmarkFiles } from '../engine/connectors/nexmark/nexmark-files.ts';
import { nexmarkParams } from '../engine/connectors/nexmark/nexmark-generator.ts';
import { exportFlinkSql } from '../engine/export/flink-sql/index.ts';
import type { FlinkLine } from '../engine/flink/runner-process.ts';
import type { NormalizedJob, StateBackendKind } from '../engine/graph/types.ts';
import { validateJob } from '../engine/graph/validate.ts';
import { runFlinkScripts, type FlinkScriptsRun } from './flink-scripts.ts';
import { NEXMARK_EXAMPLES, fileSourcedDocument } from './nexmark-file-jobs.ts';
import { timedRun } from './nexmark-run.ts';
import { weirRunMs } from './weir-process.ts';
import type { BenchFigure, BenchOptions } from './report.ts';

const SECTION = 'Nexmark vs Flink';

export interface NexmarkBenchOptions extends BenchOptions {
  /** Events of every query (default: 250,000, or 50,000 for the SLOW ones; 30,000 with --quick). */
  events?: number;
  /** Only these queries (e.g. ['q0', 'q5']); default every qN.weir.json (q0, q5 and q8 with --quick). */
  queries?: string[];
  backends?: Array<'heap' | 'rocksdb'>;
  flinkLine?: FlinkLine;
  /** Progress lines (the standalone runner prints them). */
  log?: (line: string) => void;
}

const BACKENDS: Record<'heap' | 'rocksdb', { kind: StateBackendKind; target: number }> = {
  heap: { kind: 'fs', target: 3 },
  rocksdb: { kind: 'rocksdb', target: 1 },
};

/**
 * Queries that run at tens of thousands of events per second (joins and windows holding much
 * state; Flink's published per-core rate under 100K for all but q13, whose regular join keeps every
 * bid): 50,000 events against 250,000, so the whole section (40 runs of each engine, the first
 * Flink script of a JVM planning for ~30 s on a loaded machine) stays within half an hour even
 * when the machine is shared, and a regular join's state fits Flink's 768 MB heap.
 */
const SLOW = new Set(['q4', 'q5', 'q7', 'q9', 'q11', 'q12', 'q13', 'q15', 'q16', 'q18', 'q19', 'q20']);
const QUICK_QUERIES = ['q0', 'q5', 'q8'];

export function nexmarkQueries(): string[] {
  return readdirSync(NEXMARK_EXAMPLES)
    .map((f) => /^(q\d+)\.weir\.json$/.exec(f)?.[1])
    .filter((q): q is string => q !== undefined)
    .sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)));
}

/** The events of `events` generated once into `dir/data-<events>`. */
function eventFiles(dir: string, events: number, log: (line: string) => void): string {
  const data = join(dir, `data-${events}`);
  if (!existsSync(join(data, 'bid.jsonl'))) {
    const t = performance.now();
    const r = writeNexmarkFiles(nexmarkParams({ events, seed: 0 }), data);
    log(
      `  generated ${events} events (${JSON.stringify(r.counts)}) in ${((performance.now() - t) / 1000).toFixed(1)} s`,
    );
  }
  return data;
}

interface QueryJob {
  query: string;
  events: number;
  jobFile: string;
  script: string;
  job: NormalizedJob | null;
  problem: string | null;
}

function prepare(
  query: string,
  events: number,
  backend: StateBackendKind,
  dir: string,
  data: string,
  line: FlinkLine,
): QueryJob {
  const work = join(dir, `${query}-${backend}`);
  mkdirSync(work, { recursive: true });
  const doc = fileSourcedDocument({ query, dataDir: data, backend, workDir: work });
  const jobFile = join(work, 'job.weir.json');
  const script = join(work, 'job.sql');
  writeFileSync(jobFile, JSON.stringify(doc, null, 1));
  // The in-process run checkpoints into its own folder: a fresh run must not find `weir run`'s.
  const own = join(work, 'in-process');
  const v = validateJob(fileSourcedDocument({ query, dataDir: data, backend, workDir: own }), { baseDir: own });
  if (!v.ok)
    return {
      query,
      events,
      jobFile,
      script,
      job: null,
      problem: v.problems.map((p) => `${p.path}: ${p.message}`).join('; '),
    };
  const forFlink = join(work, 'flink');
  const f = validateJob(fileSourcedDocument({ query, dataDir: data, backend, workDir: forFlink }), {
    baseDir: forFlink,
  });
  if (!f.ok) throw new Error(`${query}: valid for Weir, invalid for the export: ${f.problems[0]?.message}`);
  const text = exportFlinkSql(f.job, { flinkVersion: line }).text;
  if (!/'connector' = 'blackhole'/.test(text)) throw new Error(`${query}: the exported script has no blackhole sink`);
  writeFileSync(script, text);
  return { query, events, jobFile, script, job: v.job, problem: null };
}

/** `weir run JOB --quiet` from spawn to exit, ms. */
const rate = (events: number, ms: number | null) => (ms === null || !(ms > 0) ? NaN : events / (ms / 1000));
const k = (x: number) => (Number.isFinite(x) ? `${Math.round(x).toLocaleString('en-US')}/s` : 'n/a');

export async function run(opts: NexmarkBenchOptions): Promise<BenchFigure[]> {
  const log = opts.log ?? (() => {});
  const line = opts.flinkLine ?? '1.20';
  const queries = opts.queries ?? (opts.quick ? QUICK_QUERIES : nexmarkQueries());
  const sizeOf = (q: string) => opts.events ?? (opts.quick ? 30_000 : SLOW.has(q) ? 50_000 : 250_000);
  const figures: BenchFigure[] = [];
  for (const name of opts.backends ?? (['heap', 'rocksdb'] as const)) {
    const { kind, target } = BACKENDS[name];
    const jobs = queries.map((q) => {
      const events = sizeOf(q);
      return prepare(q, events, kind, opts.dir, eventFiles(opts.dir, events, log), line);
    });
    const runnable = jobs.filter((j) => j.job !== null);
    let flink: FlinkScriptsRun | null = null;
    let flinkProblem: string | null = null;
    // The engines run one after the other: the load each met is part of the figure.
    const load = { flink: load1m(), weir: NaN };
    try {
      flink = await runFlinkScripts(
        line,
        runnable.map((j) => j.script),
        log,
      );
      log(`  flink ${flink.flinkVersion} ${name}: JVM and MiniCluster up in ${(flink.startMs / 1000).toFixed(1)} s`);
    } catch (e) {
      flinkProblem = (e as Error).message;
    }
    load.weir = load1m();
    for (const j of jobs) {
      const figure = (what: string, value: number, base: number, note: string, extra = ''): BenchFigure => {
        const ratio = value / base;
        const ok = Number.isFinite(ratio);
        return {
          section: SECTION,
          name: `${j.query} ${name} ${what}`,
          value: Number.isFinite(value) ? value : 0,
          unit: 'events/s',
          ...(Number.isFinite(base) ? { baseline: { name: `Flink ${flink?.flinkVersion ?? line}`, value: base } } : {}),
          ...(ok ? { ratio, met: ratio >= target } : {}),
          target: `>= ${target}x Flink`,
          note: `${j.events.toLocaleString('en-US')} events, parallelism 1, load average ${load.flink} when Flink's run started, ${load.weir} when Weir's; ${note}${extra}`,
        };
      };
      if (j.job === null) {
        figures.push(figure('whole process', NaN, NaN, `invalid: ${j.problem}`));
        continue;
      }
      const f = flink?.scripts[runnable.indexOf(j)];
      const flinkNote = flinkProblem
        ? `; Flink not run: ${flinkProblem}`
        : f && !f.ok
          ? `; Flink failed: ${f.error}`
          : '';
      const flinkWholeMs = flink && f?.ok ? flink.startMs + f.scriptMs : null;
      const flinkSteadyMs = f?.ok ? f.steadyMs : null;
      let weirWholeMs: number | null = null;
      let weirSteadyMs: number | null = null;
      let weirProblem = '';
      try {
        weirWholeMs = weirRunMs(j.jobFile, opts.dir);
        weirSteadyMs = (await timedRun(j.job)).wallMs;
      } catch (e) {
        weirProblem = `; Weir failed: ${(e as Error).message}`;
      }
      log(
        `  ${j.query} ${name}: whole Weir ${k(rate(j.events, weirWholeMs))} Flink ${k(rate(j.events, flinkWholeMs))}; ` +
          `steady Weir ${k(rate(j.events, weirSteadyMs))} Flink ${k(rate(j.events, flinkSteadyMs))}`,
      );
      figures.push(
        figure(
          'whole process',
          rate(j.events, weirWholeMs),
          rate(j.events, flinkWholeMs),
          `weir run ${secs(weirWholeMs)}, Flink JVM start + script ${secs(flinkWholeMs)}`,
          weirProblem + flinkNote,
        ),
        figure(
          'steady state',
          rate(j.events, weirSteadyMs),
          rate(j.events, flinkSteadyMs),
          `Weir running to finishing ${secs(weirSteadyMs)}, Flink all subtasks RUNNING to FINISHED ${secs(flinkSteadyMs)}` +
            (f?.steadyFrom === 'polls' ? ' (from 200 ms polls: rough)' : ''),
          weirProblem + flinkNote,
        ),
      );
    }
  }
  return figures;
}

const load1m = () => Number(loadavg()[0].toFixed(1));
const secs = (ms: number | null) => (ms === null ? 'n/a' : `${(ms / 1000).toFixed(1)} s`);
