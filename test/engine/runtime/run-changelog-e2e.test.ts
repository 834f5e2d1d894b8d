/**
 * End to end: `weir run` of an aggregate over a changelog (Nexmark q4's shape): MAX(price) per
 * auction over a bids file, then AVG/MIN/COUNT per category over that updating result, at
 * parallelism 2 on RocksDB with checkpoints, into a changelog-json sink. The committed changes,
 * folded with signed counts, must equal the batch answer computed here by plain loops.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonical, diffMultisets, readCommitted, rng, runWeir, tempDir, writeJob } from '../../support/run-helpers.ts';

const START = Date.UTC(2024, 0, 1);

interface Bid {
  auction: number;
  category: number;
  price: number;
  ts: number;
}

function makeBids(dir: string, count: number): Bid[] {
  const random = rng(21);
  const bids: Bid[] = [];
  for (let i = 0; i < count; i++) {
    const auction = Math.floor(random() * 400);
    bids.push({ auction, category: auction % 7, price: 1 + Math.floor(random() * 10_000), ts: START + i * 5 });
  }
  mkdirSync(join(dir, 'in'), { recursive: true });
  writeFileSync(join(dir, 'in', 'bids.jsonl'), bids.map((b) => JSON.stringify(b)).join('\n') + '\n');
  return bids;
}

function reference(bids: Bid[]): string[] {
  const max = new Map<number, Bid>();
  for (const b of bids) if ((max.get(b.auction)?.price ?? -1) < b.price) max.set(b.auction, b);
  const perCategory = new Map<number, number[]>();
  for (const b of max.values()) perCategory.set(b.category, [...(perCategory.get(b.category) ?? []), b.price]);
  return [...perCategory.entries()]
    .map(([category, finals]) =>
      canonical({
        category,
        avg_price: Math.trunc(finals.reduce((a, b) => a + b, 0) / finals.length),
        lo: Math.min(...finals),
        auctions: finals.length,
      }),
    )
    .sort();
}

/** +I/+U add one, -U/-D take one away; every row must end at count 0 or 1. */
function fold(lines: string[]): string[] {
  const table = new Map<string, number>();
  for (const l of lines) {
    const { op, data } = JSON.parse(l) as { op: string; data: Record<string, unknown> };
    const k = canonical(data);
    table.set(k, (table.get(k) ?? 0) + (op === '+I' || op === '+U' ? 1 : -1));
  }
  const rows: string[] = [];
  for (const [k, n] of table) {
    assert.ok(n === 0 || n === 1, `row ${k} folds to count ${n}`);
    if (n === 1) rows.push(k);
  }
  return rows.sort();
}

test('weir run: AVG per category over MAX per auction (an aggregate over a changelog) equals the batch answer', async () => {
  const { dir, cleanup } = tempDir('weir-changelog-e2e-');
  try {
    const bids = makeBids(dir, 20_000);
    const job = {
      format: 'weir.job/v1',
      name: 'q4-shape',
      settings: { parallelism: 2, stateBackend: 'rocksdb', checkpointing: { interval: '200ms', dir: 'ck' } },
      nodes: [
        {
          id: 'bids',
          type: 'source.file',
          config: { path: 'in', format: 'jsonl', eventTime: { field: 'ts', maxOutOfOrderness: 0 } },
        },
        { id: 'max', type: 'aggregate', config: { keyBy: 'auction, category', aggregates: 'MAX(price) AS final' } },
        {
          id: 'avg',
          type: 'aggregate',
          config: { keyBy: 'category', aggregates: 'AVG(final) AS avg_price, MIN(final) AS lo, COUNT(*) AS auctions' },
        },
        { id: 'out', type: 'sink.file', config: { path: 'out', format: 'changelog-json' } },
      ],
      edges: [
        { from: 'bids', to: 'max' },
        { from: 'max', to: 'avg' },
        { from: 'avg', to: 'out' },
      ],
    };
    const r = await runWeir(['run', writeJob(dir, job), '--quiet'], dir);
    assert.equal(r.code, 0, r.stderr);
    const lines = readCommitted(join(dir, 'out'));
    const ops = new Set(lines.map((l) => (JSON.parse(l) as { op: string }).op));
    assert.ok(ops.has('-U') && ops.has('+U'), 'the result was updated along the way');
    const want = reference(bids);
    const got = fold(lines);
    assert.deepEqual(diffMultisets(got, want), { missing: [], extra: [] });
    assert.equal(got.length, 7, 'one row per category');
  } finally {
    cleanup();
  }
});
