/**
 * Chaos with a file source (byte-offset positions): 400k out-of-order JSON Lines events in four
 * time-ordered files, fs backend, the whole `weir run` SIGKILLed at random moments and resumed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonical, diffMultisets, readCommitted, rng, runWeir, tempDir, writeJob } from '../support/run-helpers.ts';
import { checkpointProgress, killWholeProcessLoop } from './chaos-runner.ts';

const START = Date.UTC(2024, 0, 1);
const PER_FILE = 100_000;

/** Writes the input files and the job; returns the job file and the expected output. */
function prepare(dir: string): { job: string; expected: string[] } {
  mkdirSync(join(dir, 'in'));
  const random = rng(5);
  const acc = new Map<string, { start: number; k: string; n: number; total: number }>();
  // Files 0,1 hold the first half of event time and 2,3 the second: subtask s reads files s and s+2.
  for (let f = 0; f < 4; f++) {
    const lines: string[] = [];
    for (let i = 0; i < PER_FILE; i++) {
      const ts = START + (Math.floor(f / 2) * PER_FILE + i) * 5 - Math.floor(random() * 100);
      const e = { k: `k${Math.floor(random() * 9)}`, v: Math.floor(random() * 100), ts };
      lines.push(JSON.stringify(e));
      if (e.v % 3 === 0) continue;
      const start = Math.floor(ts / 2000) * 2000;
      const key = `${start}|${e.k}`;
      const a = acc.get(key) ?? { start, k: e.k, n: 0, total: 0 };
      a.n++;
      a.total += e.v;
      acc.set(key, a);
    }
    writeFileSync(join(dir, 'in', `f${f}.jsonl`), lines.join('\n') + '\n');
  }
  const job = writeJob(dir, {
    format: 'weir.job/v1',
    name: 'chaos-file',
    settings: { parallelism: 2, stateBackend: 'fs', checkpointing: { interval: '100ms', dir: 'checkpoints' } },
    nodes: [
      {
        id: 'src',
        type: 'source.file',
        config: { path: 'in', format: 'jsonl', eventTime: { field: 'ts', maxOutOfOrderness: 100 } },
      },
      { id: 'f', type: 'filter', config: { where: 'MOD(v, 3) <> 0' } },
      {
        id: 'w',
        type: 'window',
        config: { keyBy: 'k', window: { kind: 'tumbling', size: '2s' }, aggregates: 'COUNT(*) AS n, SUM(v) AS total' },
      },
      { id: 'out', type: 'sink.file', config: { path: 'out', format: 'jsonl' } },
    ],
    edges: [
      { from: 'src', to: 'f' },
      { from: 'f', to: 'w' },
      { from: 'w', to: 'out' },
    ],
  });
  const expected = [...acc.values()].map((a) =>
    canonical({
      window_start: new Date(a.start).toISOString(),
      window_end: new Date(a.start + 2000).toISOString(),
      k: a.k,
      n: a.n,
      total: a.total,
    }),
  );
  return { job, expected };
}

function assertOutput(dir: string, expected: string[]): void {
  const { missing, extra } = diffMultisets(
    readCommitted(join(dir, 'out')).map((l) => canonical(l)),
    expected,
  );
  assert.deepEqual([missing.length, extra.length, missing.slice(0, 2), extra.slice(0, 2)], [0, 0, [], []]);
}

test(
  'file source: killed with SIGKILL and resumed from byte offsets, the output equals the reference',
  { timeout: 120_000 },
  async () => {
    const { dir, cleanup } = tempDir('chaos-file');
    try {
      const { job, expected } = prepare(dir);
      const bytes = readdirSync(join(dir, 'in')).reduce((n, f) => n + statSync(join(dir, 'in', f)).size, 0);
      const r = await killWholeProcessLoop(dir, job, 4, 3, {
        minMs: 0,
        spanMs: 60,
        afterCheckpoint: true,
        progress: checkpointProgress(join(dir, 'checkpoints'), { bytes }),
      });
      assert.equal(r.final.code, 0, r.final.stderr);
      assert.ok(r.kills >= 3, `only ${r.kills} kills`);
      assertOutput(dir, expected);
    } finally {
      cleanup();
    }
  },
);

test(
  'file source: killed mid-run, then restored from the checkpoint with parallelism 3',
  { timeout: 120_000 },
  async () => {
    const { dir, cleanup } = tempDir('chaos-file-rescale');
    try {
      const { job, expected } = prepare(dir);
      const r = await killWholeProcessLoop(dir, job, 1, 8, {
        minMs: 0,
        spanMs: 30,
        afterCheckpoint: true,
        noFinal: true,
      });
      assert.equal(r.kills, 1);
      const resumed = await runWeir(['run', job, '--quiet', '--resume', '--parallelism', '3'], dir);
      assert.equal(resumed.code, 0, resumed.stderr);
      assertOutput(dir, expected);
    } finally {
      cleanup();
    }
  },
);
