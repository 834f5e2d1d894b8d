/**
 * Bench section 'Start-up': whole processes of the compiled CLI (scripts/build-cli.mjs), each next
 * to `node -e 0` timed in the same run: `weir --version` (wall and peak RSS), `weir validate` of
 * the bundled example, a 10-record job end to end (`weir run`), and the task process from its fork
 * to `ready` (deployed, about to read) under the in-process host.
 * Peak RSS comes from GNU time (`/usr/bin/time -f %M`); without it that figure is left out.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { validateJob } from '../engine/graph/validate.ts';
import type { TaskLauncher } from '../engine/runtime/job/api.ts';
import { startJob } from '../engine/runtime/job/job-runner.ts';
import { forkLauncher } from '../engine/runtime/job/launcher.ts';
import { median, type BenchFigure, type BenchOptions } from './report.ts';
import { WEIR_BIN } from './weir-process.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const EXAMPLE = join(ROOT, 'examples', 'orders-per-user');
const GNU_TIME = '/usr/bin/time';

interface ProcessSample {
  ms: number;
  /** Peak resident set, MB (NaN without GNU time). */
  mb: number;
}

/** One whole process: wall time around it, peak RSS from GNU time when the machine has it. */
function timeProcess(args: string[], cwd: string, scratch: string): ProcessSample {
  const rssFile = join(scratch, 'rss.txt');
  const withTime = existsSync(GNU_TIME);
  const [cmd, argv] = withTime
    ? [GNU_TIME, ['-f', '%M', '-o', rssFile, process.execPath, ...args]]
    : [process.execPath, args];
  const t = performance.now();
  const r = spawnSync(cmd, argv, { cwd, encoding: 'utf8' });
  const ms = performance.now() - t;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  const mb = withTime ? Number(readFileSync(rssFile, 'utf8').trim().split('\n').pop()) / 1024 : NaN;
  return { ms, mb };
}

/** The 10-record job: the bundled example on its first ten orders, in its own folder. */
function tenRecordJob(dir: string): string {
  mkdirSync(join(dir, 'data'), { recursive: true });
  const lines = readFileSync(join(EXAMPLE, 'data', 'orders.jsonl'), 'utf8')
    .split('\n')
    .slice(0, 10);
  writeFileSync(join(dir, 'data', 'orders.jsonl'), `${lines.join('\n')}\n`);
  const job = JSON.parse(readFileSync(join(EXAMPLE, 'job.weir.json'), 'utf8')) as Record<string, unknown>;
  delete job.$schema;
  writeFileSync(join(dir, 'job.json'), JSON.stringify(job));
  return join(dir, 'job.json');
}

/** Fork of the bundled task process to its `ready` message, the host running in this process. */
async function taskReadyMs(taskMain: string, dir: string): Promise<number> {
  const v = validateJob(JSON.parse(readFileSync(join(dir, 'job.json'), 'utf8')), { baseDir: dir });
  if (!v.ok) throw new Error(v.problems.map((p) => `${p.path}: ${p.message}`).join('\n'));
  const inner = forkLauncher({ entry: taskMain });
  let forkedAt = 0;
  let readyAt = 0;
  const launcher: TaskLauncher = {
    launch() {
      forkedAt = performance.now();
      const handle = inner.launch();
      handle.onMessage((m) => {
        if ((m as { type?: string }).type === 'ready' && !readyAt) readyAt = performance.now();
      });
      return handle;
    },
  };
  const run = await startJob({ job: v.job, launcher, clearOutput: true });
  await run.done;
  if (!readyAt) throw new Error('the task process never reported ready');
  return readyAt - forkedAt;
}

function figure(name: string, samples: number[], baseline: number[], unit: string, limit: number): BenchFigure {
  const value = median(samples);
  const base = median(baseline);
  return {
    section: 'Start-up',
    name,
    value,
    unit,
    baseline: { name: 'node -e 0', value: base },
    ratio: value / base,
    target: `<= ${limit} ${unit}`,
    met: value <= limit,
    samples,
  };
}

export async function run(opts: BenchOptions): Promise<BenchFigure[]> {
  const rounds = opts.quick ? 3 : 7;
  // The first call builds the bundle when it is missing or stale; dist/cli.json then names it.
  timeProcess([WEIR_BIN, '--version'], ROOT, opts.dir);
  const bundle = JSON.parse(readFileSync(join(ROOT, 'dist', 'cli.json'), 'utf8')) as { dir: string };
  const taskMain = join(ROOT, 'dist', bundle.dir, 'task-main.cjs');
  const jobDir = join(opts.dir, 'job');
  const jobFile = tenRecordJob(jobDir);
  const s = { node: [] as ProcessSample[], version: [] as ProcessSample[], validate: [] as number[] };
  const job: number[] = [];
  const task: number[] = [];
  // Interleaved rounds, so a busy spell on the machine slows the baseline as much as the CLI.
  for (let i = 0; i < rounds; i++) {
    s.node.push(timeProcess(['-e', '0'], ROOT, opts.dir));
    s.version.push(timeProcess([WEIR_BIN, '--version'], ROOT, opts.dir));
    s.validate.push(timeProcess([WEIR_BIN, 'validate', join(EXAMPLE, 'job.weir.json')], ROOT, opts.dir).ms);
    rmSync(join(jobDir, 'checkpoints'), { recursive: true, force: true });
    job.push(timeProcess([WEIR_BIN, 'run', jobFile, '--quiet', '--clear-output'], jobDir, opts.dir).ms);
    rmSync(join(jobDir, 'checkpoints'), { recursive: true, force: true });
    task.push(await taskReadyMs(taskMain, jobDir));
  }
  const nodeMs = s.node.map((x) => x.ms);
  const figures = [
    figure(
      'weir --version',
      s.version.map((x) => x.ms),
      nodeMs,
      'ms',
      150,
    ),
    figure('weir validate (example)', s.validate, nodeMs, 'ms', 400),
    figure('10-record job, weir run end to end', job, nodeMs, 'ms', 700),
    figure('task process, fork to ready', task, nodeMs, 'ms', 200),
  ];
  if (s.version.every((x) => Number.isFinite(x.mb)))
    figures.splice(
      1,
      0,
      figure(
        'weir --version peak RSS',
        s.version.map((x) => x.mb),
        s.node.map((x) => x.mb),
        'MB',
        80,
      ),
    );
  return figures;
}
