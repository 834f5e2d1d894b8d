/**
 * Weir's Flink runner (flink-runner/, built by `npm run flink:build`) as a child process: a JVM
 * that runs Flink SQL scripts on a local MiniCluster and reports JSON lines on stdout. This module
 * finds the build, checks Java, starts the JVM and hands each line to the caller as a typed
 * event; `weir flink run` and the Flink parity test both go through it.
 *
 * Protocol (flink-runner/src/main/java/dev/weir/flink/Reporter.java): every line is one object with
 * an `event`; the last is always `end` (ok, error). One JVM runs several scripts in turn, each in
 * its own TableEnvironment, bracketed by `script` and `scriptEnd`.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** The Flink lines the runner is built for, as `--flink-version` names them. */
export type FlinkLine = '1.20' | '2.x';
export const FLINK_LINES: readonly FlinkLine[] = ['1.20', '2.x'];

export interface FlinkVertex {
  id: string;
  name: string;
  parallelism: number;
  status: string;
  recordsIn: number;
  recordsOut: number;
}

export type FlinkRunnerEvent =
  | { event: 'started'; flinkVersion: string; slots: number; restUrl: string; scripts: number }
  | { event: 'script'; index: number; file: string; statements: number }
  | { event: 'statement'; index: number; line: number; kind: string; sql: string }
  | { event: 'job'; jobId: string; line: number; restUrl: string }
  | { event: 'progress'; jobId: string; state: string; vertices: FlinkVertex[]; checkpoints: number }
  | { event: 'failure'; jobId?: string; message: string; task?: string; final?: boolean }
  | {
      event: 'finished';
      jobId: string;
      state: string;
      vertices: FlinkVertex[];
      checkpoints: number;
      durationMs: number;
      /** From the last subtask RUNNING to the last FINISHED, by the JobManager's timestamps (FINISHED jobs only). */
      runningMs?: number;
    }
  | { event: 'row'; kind: string; values: Array<string | null> }
  | { event: 'stdout'; line: string }
  | { event: 'scriptEnd'; index: number; file: string; ok: boolean; error?: string }
  | { event: 'end'; ok: boolean; jobs?: number; failedScripts?: number; error?: string };

/** The runner's JVM options: the module openings Flink needs on Java 17, and a modest heap. */
const JVM_OPTIONS = [
  '-Xms128m',
  '-Xmx768m',
  '-XX:+UseSerialGC',
  '--add-exports=java.base/sun.net.util=ALL-UNNAMED',
  ...[
    'java.lang',
    'java.lang.reflect',
    'java.io',
    'java.net',
    'java.nio',
    'sun.nio.ch',
    'java.text',
    'java.time',
    'java.util',
    'java.util.concurrent',
    'java.util.concurrent.atomic',
    'java.util.concurrent.locks',
  ].map((p) => `--add-opens=java.base/${p}=ALL-UNNAMED`),
];

const RUNNER_ROOT = fileURLToPath(new URL('../../flink-runner/', import.meta.url));

/** Where `npm run flink:build` puts the runner of a Flink line. */
export function runnerDir(line: FlinkLine): string {
  return join(RUNNER_ROOT, 'target', line === '1.20' ? 'flink-1.20' : 'flink-2');
}

export type Availability = { ok: true; classpath: string } | { ok: false; reason: string };

/** The Java major version on PATH, or null when there is no `java`. */
export function javaMajorVersion(): number | null {
  const r = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (r.error || r.status !== 0) return null;
  const m = /version "(\d+)(?:\.(\d+))?/.exec(r.stderr + r.stdout);
  if (!m) return null;
  return m[1] === '1' ? Number(m[2]) : Number(m[1]);
}

/** Whether the runner of `line` can start here: Java 17+ and a build; else one line saying why. */
export function runnerAvailability(line: FlinkLine): Availability {
  const java = javaMajorVersion();
  if (java === null)
    return {
      ok: false,
      reason:
        'Java is not installed: running on Flink needs Java 17 or newer (e.g. apt-get install openjdk-17-jre-headless)',
    };
  if (java < 17) return { ok: false, reason: `Java ${java} is too old: the Flink runner needs Java 17 or newer` };
  const dir = runnerDir(line);
  const cpFile = join(dir, 'classpath.txt');
  if (!existsSync(join(dir, 'classes')) || !existsSync(cpFile))
    return {
      ok: false,
      reason: `the Flink ${line} runner is not built: run npm run flink:build -- --flink-version ${line} (needs Maven)`,
    };
  const deps = readFileSync(cpFile, 'utf8').trim();
  const missing = deps.split(':').find((p) => p !== '' && !existsSync(p));
  if (missing)
    return {
      ok: false,
      reason: `the Flink ${line} runner's dependency ${missing} is gone from the Maven repository: run npm run flink:build -- --flink-version ${line}`,
    };
  return { ok: true, classpath: `${join(dir, 'classes')}:${deps}` };
}

export interface FlinkRunOptions {
  line: FlinkLine;
  scripts: string[];
  /** Configuration that wins over the scripts' SET statements (e.g. parallelism.default). */
  settings?: Record<string, string>;
  /** A job still running after this many seconds is canceled and its script fails. */
  jobTimeoutSeconds?: number;
  onEvent?: (e: FlinkRunnerEvent) => void;
  /** Each line Flink logs (warnings and errors, on the JVM's stderr). */
  onLog?: (line: string) => void;
  cwd?: string;
}

export interface FlinkRunResult {
  ok: boolean;
  /** Flink's error in one line, when not ok. */
  error?: string;
  events: FlinkRunnerEvent[];
  exitCode: number | null;
}

export interface FlinkRunHandle {
  result: Promise<FlinkRunResult>;
  /** Ends the JVM (its shutdown hook closes the MiniCluster, which cancels running jobs). */
  stop(): void;
}

/**
 * The `java` arguments that run one of the runner's main classes: dev.weir.flink.Main (scripts) or
 * dev.weir.flink.GatewayServer (a local SQL Gateway over a MiniCluster: PORT [SLOTS]). Spawn it
 * with a pipe on stdin (`stdio: ['pipe', …]`) and leave the pipe open: the JVM exits when it closes,
 * so it never outlives the process that started it (ParentWatch.java).
 */
export function runnerJavaArgs(classpath: string, mainClass: 'Main' | 'GatewayServer', args: string[]): string[] {
  return [...JVM_OPTIONS, '-Dweir.exitWithParent=true', '-cp', classpath, `dev.weir.flink.${mainClass}`, ...args];
}

/** Starts the runner; `runnerAvailability` must have said ok (the classpath comes from it). */
export function startFlinkRunner(opts: FlinkRunOptions, classpath: string): FlinkRunHandle {
  const args = runnerJavaArgs(classpath, 'Main', [...opts.scripts]);
  for (const [k, v] of Object.entries(opts.settings ?? {})) args.push('--set', `${k}=${v}`);
  if (opts.jobTimeoutSeconds !== undefined) args.push('--job-timeout', String(opts.jobTimeoutSeconds));
  const child: ChildProcess = spawn('java', args, { cwd: opts.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  const events: FlinkRunnerEvent[] = [];
  const logTail: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (line) => {
    logTail.push(line);
    if (logTail.length > 20) logTail.shift();
    opts.onLog?.(line);
  });
  createInterface({ input: child.stdout! }).on('line', (line) => {
    let e: FlinkRunnerEvent;
    try {
      e = JSON.parse(line) as FlinkRunnerEvent;
    } catch {
      e = { event: 'stdout', line };
    }
    events.push(e);
    opts.onEvent?.(e);
  });
  const result = new Promise<FlinkRunResult>((resolve) => {
    child.on('error', (err) =>
      resolve({ ok: false, error: `cannot start java: ${err.message}`, events, exitCode: null }),
    );
    child.on('close', (code, signal) => {
      const end = [...events].reverse().find((e) => e.event === 'end');
      if (end?.event === 'end') resolve({ ok: end.ok && code === 0, error: end.error, events, exitCode: code });
      else {
        const last = logTail.filter((l) => /ERROR|Exception|Error/.test(l)).pop() ?? logTail.at(-1) ?? '';
        const how = signal ? `was stopped (${signal})` : `exited with code ${code}`;
        resolve({
          ok: false,
          error: `the Flink runner ${how} before its end${last ? `: ${last}` : ''}`,
          events,
          exitCode: code,
        });
      }
    });
  });
  return {
    result,
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    },
  };
}
