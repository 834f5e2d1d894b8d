/**
 * The job every fault test runs, and its independent reference: a deterministic generator (small:
 * a few thousand records, paced so a run lasts a couple of seconds) into a keyed tumbling window and,
 * unchanged, straight into the same two-phase-commit file sink. The reference is a plain loop over
 * the generator's records. Helpers read checkpoint folders and compare committed output exactly.
 */
import assert from 'node:assert/strict';
import { cpSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { StateBackendKind } from '../../engine/graph/types.ts';
import { generatorParams, generatorRecord } from '../../engine/connectors/generator-source.ts';
import { canonical, childPids, diffMultisets, readCommitted, sleep, type RunningWeir } from '../support/run-helpers.ts';

export const COUNT = 2400;
const GEN = { seed: 7, count: COUNT, keys: 4, step: 10 };
const WINDOW_MS = 2000;

/** `rate: null` reads as fast as possible: the records are the same, only their pace differs. */
export function faultJob(
  backend: StateBackendKind,
  opts: { rate?: number | null; name?: string; retained?: number; interval?: string } = {},
) {
  return {
    format: 'weir.job/v1',
    name: opts.name ?? `faults-${backend}`,
    settings: {
      parallelism: 2,
      stateBackend: backend,
      // RocksDB checkpoints incrementally, so damaged files include shared ones several checkpoints use.
      checkpointing: {
        interval: opts.interval ?? '100ms',
        dir: 'checkpoints',
        retained: opts.retained ?? 3,
        incremental: backend === 'rocksdb',
      },
      restart: { attempts: 2, delay: '50ms' },
    },
    nodes: [
      {
        id: 'gen',
        type: 'source.generator',
        config: { ...GEN, ...(opts.rate === null ? {} : { rate: opts.rate ?? 1200 }), eventTime: { field: 'ts' } },
      },
      {
        id: 'win',
        type: 'window',
        config: {
          keyBy: 'key',
          window: { kind: 'tumbling', size: WINDOW_MS },
          aggregates: 'COUNT(*) AS n, SUM(value) AS total',
        },
      },
      { id: 'raw', type: 'map', config: { select: 'key, seq AS n, value AS total' } },
      { id: 'out', type: 'sink.file', config: { path: 'out', format: 'jsonl' } },
    ],
    edges: [
      { from: 'gen', to: 'win' },
      { from: 'win', to: 'out' },
      { from: 'gen', to: 'raw' },
      { from: 'raw', to: 'out' },
    ],
  };
}

/** Expected committed records, canonical JSON (run-helpers.canonical). */
export function faultReference(): string[] {
  const p = generatorParams(GEN);
  const windows = new Map<string, { start: number; key: string; n: number; total: number }>();
  const out: string[] = [];
  for (let seq = 0; seq < COUNT; seq++) {
    const r = generatorRecord(p, seq);
    const start = Math.floor(r.ts / WINDOW_MS) * WINDOW_MS;
    const id = `${start}|${r.key}`;
    const w = windows.get(id) ?? { start, key: r.key, n: 0, total: 0 };
    w.n++;
    w.total += r.value;
    windows.set(id, w);
    out.push(canonical({ key: r.key, n: r.seq, total: r.value }));
  }
  for (const w of windows.values()) {
    out.push(
      canonical({
        window_start: new Date(w.start).toISOString(),
        window_end: new Date(w.start + WINDOW_MS).toISOString(),
        key: w.key,
        n: w.n,
        total: w.total,
      }),
    );
  }
  return out;
}

/** Zero missing and zero duplicated: the committed output equals the reference as a multiset. */
export function assertExact(outDir: string, reference: string[], context: string): void {
  const got = readCommitted(outDir).map((l) => canonical(l));
  const { missing, extra } = diffMultisets(got, reference);
  assert.equal(
    missing.length + extra.length,
    0,
    `${context}: ${missing.length} missing, ${extra.length} extra (of ${reference.length}); e.g. ${JSON.stringify([...missing.slice(0, 2), ...extra.slice(0, 2)])}`,
  );
}

/** A snapshot of every visible file in a folder (name -> content), to prove a refusal changed nothing. */
export function snapshotFolder(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string, rel: string) => {
    if (!existsSync(d)) return;
    for (const n of readdirSync(d).sort()) {
      const p = join(d, n);
      const st = statSync(p);
      if (st.isDirectory()) walk(p, `${rel}${n}/`);
      else if (n !== '.weir-lock') out.set(`${rel}${n}`, readFileSync(p, 'latin1'));
    }
  };
  walk(dir, '');
  return out;
}

export function assertUnchanged(before: Map<string, string>, after: Map<string, string>, context: string): void {
  assert.deepEqual([...after.keys()], [...before.keys()], `${context}: the set of files changed`);
  for (const [k, v] of before) assert.ok(after.get(k) === v, `${context}: ${k} changed`);
}

/** Completed checkpoint ids under `<dir>/checkpoints/<job>/`, ascending. */
export function completedCheckpoints(root: string): number[] {
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .map((d) => /^chk-(\d+)$/.exec(d))
    .filter((m) => m !== null && existsSync(join(root, m[0], '_metadata')))
    .map((m) => Number(m![1]))
    .sort((a, b) => a - b);
}

/** Waits until at least `n` checkpoints have completed since the start (ids >= n), or throws. */
export async function waitForCheckpoint(root: string, id: number, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (completedCheckpoints(root).some((c) => c >= id)) return;
    await sleep(10);
  }
  throw new Error(`no checkpoint >= ${id} under ${root} within ${timeoutMs} ms`);
}

export function copyDir(from: string, to: string): void {
  cpSync(from, to, { recursive: true });
}

function running(pid: number): boolean {
  try {
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
  } catch {
    return false;
  }
}

/**
 * SIGKILL a `weir run` and wait until its task process has gone too: an orphaned task process may
 * still commit a checkpoint whose notify was already on its way, and a test that snapshots the
 * output right after the kill must not race it.
 */
export async function killRun(run: RunningWeir): Promise<void> {
  const tasks = childPids(run.child.pid!);
  run.child.kill('SIGKILL');
  await run.result;
  const end = Date.now() + 15_000;
  while (tasks.some(running)) {
    if (Date.now() > end) throw new Error(`task processes ${tasks.filter(running)} outlived their host by 15 s`);
    await sleep(10);
  }
}
