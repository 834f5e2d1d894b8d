/**
 * Issue 23, items 1-3: a restore is exact or refused whatever changed between the runs. One run of
 * a file-source job is SIGKILLed once checkpoint 2 is stored and before it commits (so its sink
 * transactions are still pending); each test restores a copy of that folder after one change:
 * - the job folder moved (every inode and mtime new, every absolute path different): exact;
 * - maxParallelism changed; a stateful node removed; a window's size changed; the sink's path
 *   changed while it has pending transactions; the input file replaced: refused, naming what, with
 *   nothing changed (and a node removed is accepted with --allow-non-restored-state).
 * On the fs and rocksdb backends. The reference is a plain loop over the input records.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  canonical,
  diffMultisets,
  readCommitted,
  runWeir,
  startWeirWithFaults,
  tempDir,
  writeJob,
} from '../support/run-helpers.ts';
import { assertExact, assertUnchanged, copyDir, snapshotFolder } from './fault-job.ts';

const PER_FILE = 150_000;
const WINDOW_MS = 1000;
const BASE = 1_700_000_000_000;
const FILES = ['a.jsonl', 'b.jsonl'];

function record(file: number, i: number) {
  const seq = file * PER_FILE + i;
  return { seq, key: `k${seq % 4}`, value: seq % 97, ts: BASE + i * 10 + file * 5 };
}

function writeInput(dir: string): void {
  mkdirSync(join(dir, 'in'));
  FILES.forEach((name, f) => {
    const lines: string[] = [];
    for (let i = 0; i < PER_FILE; i++) lines.push(JSON.stringify(record(f, i)));
    writeFileSync(join(dir, 'in', name), lines.join('\n') + '\n');
  });
}

interface Change {
  maxParallelism?: number;
  windowMs?: number;
  withoutWindow?: boolean;
  sinkPath?: string;
  sourcePath?: string;
}

function job(backend: 'fs' | 'rocksdb', change: Change = {}) {
  const nodes: unknown[] = [
    {
      id: 'src',
      type: 'source.file',
      config: { path: change.sourcePath ?? 'in', format: 'jsonl', eventTime: { field: 'ts' } },
    },
    {
      id: 'win',
      type: 'window',
      config: {
        keyBy: 'key',
        window: { kind: 'tumbling', size: change.windowMs ?? WINDOW_MS },
        aggregates: 'COUNT(*) AS n, SUM(value) AS total',
      },
    },
    { id: 'raw', type: 'map', config: { select: 'seq, key' } },
    { id: 'out', type: 'sink.file', config: { path: change.sinkPath ?? 'out', format: 'jsonl' } },
  ];
  const edges = [
    { from: 'src', to: 'win' },
    { from: 'win', to: 'out' },
    { from: 'src', to: 'raw' },
    { from: 'raw', to: 'out' },
  ];
  return {
    format: 'weir.job/v1',
    name: 'moved',
    settings: {
      parallelism: 2,
      ...(change.maxParallelism ? { maxParallelism: change.maxParallelism } : {}),
      stateBackend: backend,
      checkpointing: { interval: '100ms', dir: 'checkpoints', retained: 3, incremental: backend === 'rocksdb' },
      restart: { attempts: 0 },
    },
    nodes: change.withoutWindow ? nodes.filter((n) => (n as { id: string }).id !== 'win') : nodes,
    edges: change.withoutWindow ? edges.filter((e) => e.from !== 'win' && e.to !== 'win') : edges,
  };
}

function rawReference(): string[] {
  const out: string[] = [];
  for (let f = 0; f < FILES.length; f++)
    for (let i = 0; i < PER_FILE; i++) {
      const r = record(f, i);
      out.push(canonical({ seq: r.seq, key: r.key }));
    }
  return out;
}

function windowReference(): string[] {
  const windows = new Map<string, { start: number; key: string; n: number; total: number }>();
  for (let f = 0; f < FILES.length; f++)
    for (let i = 0; i < PER_FILE; i++) {
      const r = record(f, i);
      const start = Math.floor(r.ts / WINDOW_MS) * WINDOW_MS;
      const w = windows.get(`${start}|${r.key}`) ?? { start, key: r.key, n: 0, total: 0 };
      w.n++;
      w.total += r.value;
      windows.set(`${start}|${r.key}`, w);
    }
  return [...windows.values()].map((w) =>
    canonical({
      window_start: new Date(w.start).toISOString(),
      window_end: new Date(w.start + WINDOW_MS).toISOString(),
      key: w.key,
      n: w.n,
      total: w.total,
    }),
  );
}

/** The source offsets checkpoint 2 recorded, per file name. */
function restoredOffsets(dir: string): Map<string, number> {
  const meta = JSON.parse(readFileSync(join(dir, 'checkpoints', 'moved', 'chk-2', '_metadata'), 'utf8')) as {
    states: Array<{
      operatorId: string;
      operator?: { state?: { position?: { inputs?: Record<string, { offset: number }> } } };
    }>;
  };
  const out = new Map<string, number>();
  for (const s of meta.states.filter((x) => x.operatorId === 'src'))
    for (const [k, p] of Object.entries(s.operator?.state?.position?.inputs ?? {})) out.set(k, p.offset);
  return out;
}

/** The transaction folders checkpoint 2 lists as pending for sink 'out'. */
function pendingInCheckpoint(dir: string): string[] {
  const meta = JSON.parse(readFileSync(join(dir, 'checkpoints', 'moved', 'chk-2', '_metadata'), 'utf8')) as {
    states: Array<{ operatorId: string; operator?: { state?: { pending?: Array<{ dir: string }> } } }>;
  };
  return meta.states
    .filter((s) => s.operatorId === 'out')
    .flatMap((s) => (s.operator?.state?.pending ?? []).map((t) => t.dir));
}

/** Everything a refusal must leave as it was: the output folder and the checkpoints. */
function snapshotRun(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of snapshotFolder(join(dir, 'out'))) out.set(`out/${k}`, v);
  for (const [k, v] of snapshotFolder(join(dir, 'checkpoints'))) out.set(`checkpoints/${k}`, v);
  return out;
}

for (const backend of ['fs', 'rocksdb'] as const) {
  describe(`faults: a restore is exact or refused whatever changed between runs (issue 23, ${backend})`, () => {
    const jobOf = (change: Change = {}) => job(backend, change);
    let crashed: string;
    let cleanupCrashed: () => void;
    const rawRef = rawReference();
    const reference = [...rawRef, ...windowReference()];

    before(async () => {
      ({ dir: crashed, cleanup: cleanupCrashed } = tempDir(`faults-compat-${backend}`));
      writeInput(crashed);
      writeJob(crashed, jobOf(), 'job.json');
      const r = await startWeirWithFaults(['run', 'job.json', '--quiet'], crashed, { killHostBeforeNotify: 2 }).result;
      assert.equal(r.signal, 'SIGKILL', `the host was killed at checkpoint 2: ${r.stderr}`);
      // Guards: the kill fell mid-input with transactions pending, so a wrong restore would show.
      const offsets = restoredOffsets(crashed);
      assert.deepEqual([...offsets.keys()].sort(), FILES, 'positions are keyed by file name');
      const size = readFileSync(join(crashed, 'in', 'a.jsonl')).length;
      assert.ok(
        [...offsets.values()].some((o) => o > 0 && o < size),
        `checkpoint 2 is mid-input: ${[...offsets]}`,
      );
      assert.ok(
        readdirSync(join(crashed, 'out')).some((n) => n.startsWith('.pending-')),
        'checkpoint 2 left pending transactions',
      );
    });
    after(() => cleanupCrashed());

    /** A copy of the crashed run in a fresh folder, `prepare`d, restored with `args`. */
    async function restoreCopy(name: string, args: string[], prepare: (dir: string) => void = () => {}) {
      const { dir, cleanup } = tempDir(`faults-compat-${name}-${backend}`);
      copyDir(crashed, dir);
      prepare(dir);
      const before = snapshotRun(dir);
      const r = await runWeir(['run', 'job.json', '--resume', '--quiet', ...args], dir);
      return { dir, cleanup, before, r };
    }

    it('the job folder moved between the crash and --resume: exact output, nothing left pending', async () => {
      const { dir: staging, cleanup } = tempDir(`faults-compat-moved-${backend}`);
      try {
        copyDir(crashed, join(staging, 'first'));
        renameSync(join(staging, 'first'), join(staging, 'elsewhere')); // every absolute path differs
        const dir = join(staging, 'elsewhere');
        const r = await runWeir(['run', 'job.json', '--resume', '--quiet'], dir);
        assert.equal(r.code, 0, r.stderr);
        assertExact(join(dir, 'out'), reference, 'moved folder, --resume');
        assert.deepEqual(
          readdirSync(join(dir, 'out')).filter((n) => n.startsWith('.pending-')),
          [],
          'no transaction left hidden',
        );
      } finally {
        cleanup();
      }
    });

    it('maxParallelism changed: refused, nothing changed', async () => {
      const { dir, cleanup, before, r } = await restoreCopy('maxp', [], (d) =>
        writeJob(d, jobOf({ maxParallelism: 256 }), 'job.json'),
      );
      try {
        assert.equal(r.code, 1, r.stderr);
        assert.match(r.stderr, /taken with maxParallelism 128 and the job now has 256.*Nothing was changed/);
        assertUnchanged(before, snapshotRun(dir), 'maxParallelism changed');
      } finally {
        cleanup();
      }
    });

    it('a window node removed: refused naming it; accepted with --allow-non-restored-state', async () => {
      const { dir, cleanup, before, r } = await restoreCopy('removed', [], (d) =>
        writeJob(d, jobOf({ withoutWindow: true }), 'job.json'),
      );
      try {
        assert.equal(r.code, 1, r.stderr);
        assert.match(r.stderr, /holds state of node\(s\) 'win' that the job no longer has.*Nothing was changed/);
        assertUnchanged(before, snapshotRun(dir), 'node removed');
        const ok = await runWeir(['run', 'job.json', '--resume', '--allow-non-restored-state'], dir);
        assert.equal(ok.code, 0, ok.stderr);
        assert.match(ok.stderr, /without the state of node\(s\) 'win'/);
        // The raw rows are exact; the window's rows stop where its state was dropped.
        const raw = readCommitted(join(dir, 'out'))
          .map((l) => JSON.parse(l) as Record<string, unknown>)
          .filter((o) => !('window_start' in o))
          .map((o) => canonical(o));
        const { missing, extra } = diffMultisets(raw, rawRef);
        assert.equal(missing.length + extra.length, 0, `raw rows: ${missing.length} missing, ${extra.length} extra`);
      } finally {
        cleanup();
      }
    });

    it("a window's size changed: refused naming the node and the change", async () => {
      const { dir, cleanup, before, r } = await restoreCopy('window', [], (d) =>
        writeJob(d, jobOf({ windowMs: 2000 }), 'job.json'),
      );
      try {
        assert.equal(r.code, 1, r.stderr);
        assert.match(r.stderr, /node 'win' changed: window: .*"size":1000.* → .*"size":2000.*Nothing was changed/);
        assertUnchanged(before, snapshotRun(dir), 'window size changed');
      } finally {
        cleanup();
      }
    });

    it("a file sink's path changed with pending transactions: refused listing them; the old path then commits them", async () => {
      const { dir, cleanup, before, r } = await restoreCopy('sinkpath', [], (d) =>
        writeJob(d, jobOf({ sinkPath: 'out2' }), 'job.json'),
      );
      try {
        assert.equal(r.code, 1, r.stderr);
        const pending = pendingInCheckpoint(dir);
        assert.ok(pending.length > 0, 'checkpoint 2 lists pending transactions');
        for (const p of pending) assert.ok(existsSync(join(dir, 'out', p)), `${p} is in the old folder`);
        assert.match(r.stderr, /sink 'out' now writes to 'out2', but the checkpoint lists \d+ pending transaction/);
        for (const p of pending) assert.ok(r.stderr.includes(p), `${p} is listed`);
        assertUnchanged(before, snapshotRun(dir), 'sink path changed');
        assert.ok(!existsSync(join(dir, 'out2')), 'the new folder was not created');
        // Restored with the old path, they are committed where they belong and nothing stays hidden.
        writeJob(dir, jobOf(), 'job.json');
        const ok = await runWeir(['run', 'job.json', '--resume', '--quiet'], dir);
        assert.equal(ok.code, 0, ok.stderr);
        assertExact(join(dir, 'out'), reference, 'old path restored');
        assert.deepEqual(
          readdirSync(join(dir, 'out')).filter((n) => n.startsWith('.pending-')),
          [],
        );
      } finally {
        cleanup();
      }
    });

    it('the source now reads one file of its old folder: refused, nothing changed', async () => {
      const { dir, cleanup, before, r } = await restoreCopy('shape', [], (d) =>
        writeJob(d, jobOf({ sourcePath: 'in/a.jsonl' }), 'job.json'),
      );
      try {
        assert.equal(r.code, 1, r.stderr);
        assert.match(
          r.stderr,
          /source 'src' reads another input than the checkpoint: it read a folder and now reads one file/,
        );
        assertUnchanged(before, snapshotRun(dir), 'source path changed');
      } finally {
        cleanup();
      }
    });

    it('an input file replaced by another: refused with the reason, nothing changed', async () => {
      const { dir, cleanup, before, r } = await restoreCopy('input', [], (d) => {
        const p = join(d, 'in', 'a.jsonl');
        writeFileSync(p, readFileSync(p, 'utf8').replace(/"value":(\d+)/, '"value":1$1'));
      });
      try {
        assert.equal(r.code, 1, r.stderr);
        assert.match(
          r.stderr,
          /source 'src' reads another input than the checkpoint: .*a\.jsonl is not the file read before/,
        );
        assertUnchanged(before, snapshotRun(dir), 'input replaced');
      } finally {
        cleanup();
      }
    });
  });
}
