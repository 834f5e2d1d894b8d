/**
 * Helpers for end-to-end runtime tests: write job files, run `weir run` as a real process, read the
 * committed output of a file sink (visible files only), and compare with a reference.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const WEIR_BIN = fileURLToPath(new URL('../../bin/weir.mjs', import.meta.url));

export function tempDir(prefix: string): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), `weir-${prefix}-`));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export function writeJob(dir: string, job: unknown, name = 'job.json'): string {
  const p = join(dir, name);
  writeFileSync(p, JSON.stringify(job, null, 2));
  return p;
}

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  stdout: string;
}

export interface RunningWeir {
  child: ChildProcess;
  result: Promise<RunResult>;
}

export function startWeir(args: string[], cwd: string, env: Record<string, string> = {}): RunningWeir {
  return spawnWeir([WEIR_BIN, ...args], cwd, env);
}

function spawnWeir(nodeArgs: string[], cwd: string, env: Record<string, string>): RunningWeir {
  const child = spawn(process.execPath, nodeArgs, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  child.stdout.on('data', (d) => {
    stdout += d;
  });
  const result = new Promise<RunResult>((resolve) => {
    child.on('exit', (code, signal) => resolve({ code, signal, stderr, stdout }));
  });
  return { child, result };
}

const FAULTS_ENTRY = fileURLToPath(new URL('./weir-with-faults.ts', import.meta.url));

/**
 * `weir run` through the test-only entry weir-with-faults.ts: the host SIGKILLs itself once
 * checkpoint `killHostBeforeNotify` is stored, before its transactions are committed.
 */
export function startWeirWithFaults(
  args: string[],
  cwd: string,
  faults: { killHostBeforeNotify: number },
): RunningWeir {
  // tsx resolved here: resolving `--import tsx` against the test's temp folder would fail.
  const tsx = import.meta.resolve('tsx');
  return spawnWeir(
    ['--import', tsx, FAULTS_ENTRY, '--kill-host-before-notify', String(faults.killHostBeforeNotify), ...args],
    cwd,
    {},
  );
}

export async function runWeir(args: string[], cwd: string, timeoutMs = 120_000): Promise<RunResult> {
  const r = startWeir(args, cwd);
  const t = setTimeout(() => r.child.kill('SIGKILL'), timeoutMs);
  try {
    return await r.result;
  } finally {
    clearTimeout(t);
  }
}

/** Committed records of a file sink folder: every visible (non-dot) file's JSON lines. */
export function readCommitted(dir: string): string[] {
  const lines: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  for (const n of names) {
    if (n.startsWith('.')) continue;
    const p = join(dir, n);
    if (!statSync(p).isFile()) continue;
    for (const l of readFileSync(p, 'utf8').split('\n')) if (l.trim()) lines.push(l);
  }
  return lines;
}

/** Canonical form of a JSON record (sorted keys) so that column order does not matter. */
export function canonical(line: string | Record<string, unknown>): string {
  const o = typeof line === 'string' ? (JSON.parse(line) as Record<string, unknown>) : line;
  return JSON.stringify(
    Object.keys(o)
      .sort()
      .map((k) => [k, o[k]]),
  );
}

/** Multiset difference, for readable failures: what is missing and what is extra. */
export function diffMultisets(actual: string[], expected: string[]): { missing: string[]; extra: string[] } {
  const counts = new Map<string, number>();
  for (const e of expected) counts.set(e, (counts.get(e) ?? 0) + 1);
  const extra: string[] = [];
  for (const a of actual) {
    const c = counts.get(a) ?? 0;
    if (c > 0) counts.set(a, c - 1);
    else extra.push(a);
  }
  const missing: string[] = [];
  for (const [k, c] of counts) for (let i = 0; i < c; i++) missing.push(k);
  return { missing, extra };
}

/** Child pids of a process (the task process of a `weir run`), via /proc. */
export function childPids(pid: number): number[] {
  const out: number[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push(Number(d));
    } catch {
      /* gone */
    }
  }
  return out;
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Polls until `cond` holds (a state, never a fixed delay); fails naming `what` after `timeoutMs`. */
export async function waitFor(cond: () => boolean | Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(20);
  }
}

/** Every task process a `weir run` forks while it lives (polled from /proc until it exits). */
export function watchTaskPids(run: RunningWeir): Set<number> {
  const seen = new Set<number>();
  let done = false;
  void run.result.then(() => {
    done = true;
  });
  const poll = () => {
    if (done || run.child.pid === undefined) return;
    for (const pid of childPids(run.child.pid)) seen.add(pid);
    setTimeout(poll, 20);
  };
  poll();
  return seen;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Resolves when every one of `pids` has exited (an orphaned task process noticed its host is gone). */
export function waitForExit(pids: Iterable<number>, timeoutMs = 10_000): Promise<void> {
  const list = [...pids];
  return waitFor(() => list.every((p) => !isAlive(p)), `task processes ${list.join(', ')} to exit`, timeoutMs);
}

/** True once the sink folder holds a committed (visible) file or an open transaction. */
export function sinkStarted(dir: string): boolean {
  try {
    // Not the run's own bookkeeping (.weir-lock, .weir-sink-manifest.jsonl): those exist before any task does.
    return readdirSync(dir).some((n) => n.startsWith('.pending-') || !n.startsWith('.'));
  } catch {
    return false;
  }
}

/** Deterministic PRNG for test data (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
