/**
 * End to end: `weir run` on generated out-of-order input files (>= 100k events, several keys,
 * parallelism 2), compared with results computed here by plain reference loops.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { canonical, diffMultisets, readCommitted, rng, runWeir, tempDir, writeJob } from '../../support/run-helpers.ts';

const START = Date.UTC(2024, 0, 1);
const OOO = 300;

interface Ev {
  id: number;
  user: string;
  amount: number;
  ts: number;
}

/** `files` files, each covering the whole time range, out of order by at most OOO ms. */
function makeInput(dir: string, files: number, perFile: number, seed: number, format: 'jsonl' | 'csv'): Ev[] {
  const random = rng(seed);
  const all: Ev[] = [];
  mkdirSync(join(dir, 'in'), { recursive: true });
  for (let f = 0; f < files; f++) {
    const evs: Ev[] = [];
    for (let i = 0; i < perFile; i++) {
      const base = START + i * 20;
      evs.push({
        id: f * perFile + i,
        user: `u${Math.floor(random() * 13)}`,
        amount: Math.floor(random() * 500) - 50,
        ts: base - Math.floor(random() * OOO),
      });
    }
    all.push(...evs);
    const lines =
      format === 'jsonl'
        ? evs.map((e, i) => (i % 2 ? JSON.stringify(e) : JSON.stringify({ ...e, ts: new Date(e.ts).toISOString() })))
        : ['id,user,amount,ts', ...evs.map((e) => `${e.id},${e.user},${e.amount},${e.ts}`)];
    writeFileSync(join(dir, 'in', `part-${f}.${format}`), lines.join('\n') + '\n');
  }
  return all;
}

function job(format: 'jsonl' | 'csv', windowSpec: object, backend = 'memory') {
  return {
    format: 'weir.job/v1',
    name: 'e2e',
    settings: {
      parallelism: 2,
      stateBackend: backend,
      ...(backend !== 'memory' ? { checkpointing: { interval: '200ms', dir: 'ck' } } : {}),
    },
    nodes: [
      {
        id: 'src',
        type: 'source.file',
        config: { path: 'in', format, eventTime: { field: 'ts', maxOutOfOrderness: OOO } },
      },
      { id: 'pos', type: 'filter', config: { where: 'amount > 0' } },
      {
        id: 'w',
        type: 'window',
        config: {
          keyBy: 'user',
          window: windowSpec,
          aggregates: 'COUNT(*) AS n, SUM(amount) AS total, MAX(amount) AS top',
        },
      },
      { id: 'out', type: 'sink.file', config: { path: 'out', format: 'jsonl' } },
    ],
    edges: [
      { from: 'src', to: 'pos' },
      { from: 'pos', to: 'w' },
      { from: 'w', to: 'out' },
    ],
  };
}

function reference(evs: Ev[], size: number, slide: number): string[] {
  const acc = new Map<string, { start: number; user: string; n: number; total: number; top: number }>();
  for (const e of evs) {
    if (!(e.amount > 0)) continue;
    const last = Math.floor(e.ts / slide) * slide;
    for (let start = last; start > e.ts - size; start -= slide) {
      const k = `${start}|${e.user}`;
      const a = acc.get(k) ?? { start, user: e.user, n: 0, total: 0, top: -Infinity };
      a.n++;
      a.total += e.amount;
      a.top = Math.max(a.top, e.amount);
      acc.set(k, a);
    }
  }
  return [...acc.values()].map((a) =>
    canonical({
      window_start: new Date(a.start).toISOString(),
      window_end: new Date(a.start + size).toISOString(),
      user: a.user,
      n: a.n,
      total: a.total,
      top: a.top,
    }),
  );
}

function assertSame(actual: string[], expected: string[]): void {
  const { missing, extra } = diffMultisets(actual, expected);
  assert.deepEqual(
    { missing: missing.slice(0, 3), extra: extra.slice(0, 3), counts: [missing.length, extra.length] },
    { missing: [], extra: [], counts: [0, 0] },
  );
}

test(
  'weir run: 120k out-of-order JSON Lines events, keyed tumbling window, parallelism 2 = reference',
  { timeout: 60_000 },
  async () => {
    const { dir, cleanup } = tempDir('e2e-tumble');
    try {
      const evs = makeInput(dir, 2, 60_000, 1, 'jsonl');
      const r = await runWeir(['run', writeJob(dir, job('jsonl', { kind: 'tumbling', size: '5s' })), '--quiet'], dir);
      assert.equal(r.code, 0, r.stderr);
      assertSame(
        readCommitted(join(dir, 'out')).map((l) => canonical(l)),
        reference(evs, 5000, 5000),
      );
      assert.deepEqual(
        readdirSync(join(dir, 'out')).filter((n) => n.startsWith('.pending-')),
        [],
      );
    } finally {
      cleanup();
    }
  },
);

test(
  'weir run: CSV input, sliding window, fs backend with checkpoints, --parallelism 3 = reference',
  { timeout: 60_000 },
  async () => {
    const { dir, cleanup } = tempDir('e2e-slide');
    try {
      const evs = makeInput(dir, 3, 35_000, 2, 'csv');
      const r = await runWeir(
        [
          'run',
          writeJob(dir, job('csv', { kind: 'sliding', size: '4s', slide: '2s' }, 'fs')),
          '--quiet',
          '--parallelism',
          '3',
        ],
        dir,
      );
      assert.equal(r.code, 0, r.stderr);
      assertSame(
        readCommitted(join(dir, 'out')).map((l) => canonical(l)),
        reference(evs, 4000, 2000),
      );
    } finally {
      cleanup();
    }
  },
);

test(
  'weir run: bad lines are skipped and reported with file:line; onBadRecord fail stops the job with that place',
  { timeout: 60_000 },
  async () => {
    const { dir, cleanup } = tempDir('e2e-bad');
    try {
      mkdirSync(join(dir, 'in'));
      const good = (i: number) => JSON.stringify({ id: i, user: 'a', amount: 5, ts: START + i * 100 });
      writeFileSync(
        join(dir, 'in', 'x.jsonl'),
        [good(0), '{broken', good(1), '{"id":2,"user":"a","amount":1,"ts":"yesterday"}', good(3)].join('\n') + '\n',
      );
      const j = job('jsonl', { kind: 'tumbling', size: '1s' });
      j.settings.parallelism = 1;
      let r = await runWeir(['run', writeJob(dir, j)], dir);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, /x\.jsonl:2: invalid JSON/);
      assert.match(r.stderr, /x\.jsonl:4: field 'ts' is not a timestamp/);
      assert.equal(
        readCommitted(join(dir, 'out'))
          .map((l) => JSON.parse(l).n)
          .reduce((a, b) => a + b, 0),
        3,
      );
      (j.nodes[0].config as Record<string, unknown>).onBadRecord = 'fail';
      (j.settings as Record<string, unknown>).restart = { attempts: 0 };
      // A fresh run into committed output is refused unless told to clear it (issue 11).
      r = await runWeir(['run', writeJob(dir, j), '--clear-output'], dir);
      assert.equal(r.code, 1);
      assert.match(r.stderr, /failed: source\.file x\.jsonl:2: invalid JSON/);
      assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
    } finally {
      cleanup();
    }
  },
);

test(
  'weir run: decimal SUM/AVG are identical at parallelism 1 and 4 (exact, order-independent sums)',
  { timeout: 90_000 },
  async () => {
    const { dir, cleanup } = tempDir('e2e-decimals');
    try {
      // At parallelism 4 a key's values reach its window from 4 generator subtasks, interleaved
      // differently than the single subtask's order at parallelism 1.
      const outputs: string[][] = [];
      for (const p of ['1', '4']) {
        const j = {
          format: 'weir.job/v1',
          name: 'decimals',
          settings: { parallelism: Number(p) },
          nodes: [
            {
              id: 'gen',
              type: 'source.generator',
              config: {
                seed: 5,
                count: 60_000,
                keys: 5,
                outOfOrderness: '200ms',
                eventTime: { field: 'ts', maxOutOfOrderness: '200ms' },
              },
            },
            { id: 'dec', type: 'map', config: { select: 'key, value / 7.0 + 0.01 AS amount, ts' } },
            {
              id: 'w',
              type: 'window',
              config: {
                keyBy: 'key',
                window: { kind: 'tumbling', size: '10s' },
                aggregates: 'SUM(amount) AS total, AVG(amount) AS mean',
              },
            },
            { id: 'out', type: 'sink.file', config: { path: `out-${p}`, format: 'jsonl' } },
          ],
          edges: [
            { from: 'gen', to: 'dec' },
            { from: 'dec', to: 'w' },
            { from: 'w', to: 'out' },
          ],
        };
        const r = await runWeir(['run', writeJob(dir, j), '--quiet'], dir);
        assert.equal(r.code, 0, r.stderr);
        outputs.push(
          readCommitted(join(dir, `out-${p}`))
            .map((l) => canonical(l))
            .sort(),
        );
      }
      assert.ok(outputs[0].length > 10);
      assert.ok(
        outputs[0].some((l) => /\["total",\d+\.\d/.test(l)),
        'the sums really are decimals',
      );
      assert.deepEqual(outputs[1], outputs[0]);
    } finally {
      cleanup();
    }
  },
);
