/**
 * Chaos with a file source (byte-offset positions): 400k out-of-order JSON Lines events in four
 * time-ordered files, fs backend, the whole `weir run` SIGKILLed at random moments and resumed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonical, diffMultisets, readCommitted, rng, tempDir, writeJob } from '../engine/runtime/run-helpers.ts';
import { killWholeProcessLoop } from './chaos-runner.ts';

const START = Date.UTC(2024, 0, 1);
const PER_FILE = 100_000;

test('file source: killed with SIGKILL and resumed from byte offsets, the output equals the reference', { timeout: 120_000 }, async () => {
  const { dir, cleanup } = tempDir('chaos-file');
  try {
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
        a.n++; a.total += e.v;
        acc.set(key, a);
      }
      writeFileSync(join(dir, 'in', `f${f}.jsonl`), lines.join('\n') + '\n');
    }
    const job = writeJob(dir, {
      format: 'weir.job/v1', name: 'chaos-file',
      settings: { parallelism: 2, stateBackend: 'fs', checkpointing: { interval: '100ms', dir: 'checkpoints' } },
      nodes: [
        { id: 'src', type: 'source.file', config: { path: 'in', format: 'jsonl', eventTime: { field: 'ts', maxOutOfOrderness: 100 } } },
        { id: 'f', type: 'filter', config: { where: 'MOD(v, 3) <> 0' } },
        { id: 'w', type: 'window', config: { keyBy: 'k', window: { kind: 'tumbling', size: '2s' }, aggregates: 'COUNT(*) AS n, SUM(v) AS total' } },
        { id: 'out', type: 'sink.file', config: { path: 'out', format: 'jsonl' } },
      ],
      edges: [{ from: 'src', to: 'f' }, { from: 'f', to: 'w' }, { from: 'w', to: 'out' }],
    });
    const r = await killWholeProcessLoop(dir, job, 4, 3, { minMs: 0, spanMs: 60, afterCheckpoint: true });
    assert.equal(r.final.code, 0, r.final.stderr);
    assert.ok(r.kills >= 3, `only ${r.kills} kills`);
    const expected = [...acc.values()].map((a) => canonical({
      window_start: new Date(a.start).toISOString(), window_end: new Date(a.start + 2000).toISOString(), k: a.k, n: a.n, total: a.total,
    }));
    const { missing, extra } = diffMultisets(readCommitted(join(dir, 'out')).map((l) => canonical(l)), expected);
    assert.deepEqual([missing.length, extra.length, missing.slice(0, 2), extra.slice(0, 2)], [0, 0, [], []]);
  } finally { cleanup(); }
});
