/**
 * The Flink runner for tests: built (npm run flink:build, a no-op when up to date) before use.
 * Tests skip, saying why, only when Java or Maven is absent from this machine; `.ci/run` has
 * both, so in CI they always run. A failing build is a test failure, never a skip.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  javaMajorVersion,
  runnerAvailability,
  runnerJavaArgs,
  type FlinkLine,
} from '../../engine/flink/runner-process.ts';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const BIN = join(ROOT, 'bin', 'weir.mjs');

/** Why the Flink tests cannot run here (Java or Maven missing), or undefined. */
export function flinkSkipReason(): string | undefined {
  const java = javaMajorVersion();
  if (java === null) return 'Flink tests skipped: Java is not installed (they need Java 17+ and Maven)';
  if (java < 17) return `Flink tests skipped: Java ${java} is older than 17`;
  const mvn = spawnSync('mvn', ['-v'], { encoding: 'utf8' });
  if (mvn.error || mvn.status !== 0) return 'Flink tests skipped: Maven is not installed (needed to build the runner)';
  return undefined;
}

/** Builds the runner of `line` if needed and returns its classpath; throws when the build fails. */
export function buildRunner(line: FlinkLine): string {
  const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'flink-build.mjs'), '--flink-version', line], {
    encoding: 'utf8',
    cwd: ROOT,
  });
  if (r.status !== 0) throw new Error(`npm run flink:build failed:\n${r.stdout}${r.stderr}`);
  const available = runnerAvailability(line);
  if (!available.ok) throw new Error(available.reason);
  return available.classpath;
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The real `weir` binary as a subprocess (Flink's JVM start takes seconds: a generous timeout). */
export function weir(args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<CliRun> {
  return new Promise((res, rej) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: opts.cwd ?? ROOT,
      env: opts.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 180_000);
    child.on('error', rej);
    child.on('close', (code) => {
      clearTimeout(timer);
      res({ code, stdout, stderr });
    });
  });
}

/** A TCP port free on 127.0.0.1 right now. */
export function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const server = createServer();
    server.on('error', rej);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => res(port));
    });
  });
}

/**
 * The runner's GatewayServer: a real Flink SQL Gateway in front of a MiniCluster, from Maven
 * artifacts; `url` resolves once it serves (rejects, with its log, when it exits first).
 */
export function startGateway(classpath: string, port: number): { child: ChildProcess; url: Promise<string> } {
  const child = spawn('java', runnerJavaArgs(classpath, 'GatewayServer', [String(port)]), {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let log = '';
  child.stderr.on('data', (d) => (log = (log + String(d)).slice(-4000)));
  const url = new Promise<string>((res, rej) => {
    child.on('exit', (code) => rej(new Error(`the gateway exited (${code}) before serving:\n${log}`)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      const e = JSON.parse(line) as { event: string; url?: string };
      if (e.event === 'gateway') res(e.url!);
    });
  });
  return { child, url };
}
