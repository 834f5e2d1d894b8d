// source.nexmark: what `weir nexmark generate` writes is exactly what the source emits (any
// parallelism, across restores), Flink's event mix and id structure, and determinism per seed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../../engine/cli/main.ts';
import type { SourceContext } from '../../../../engine/contracts/source.ts';
import { NexmarkSourceReader } from '../../../../engine/connectors/nexmark/nexmark-source.ts';
import { NexmarkGenerator, nexmarkParams } from '../../../../engine/connectors/nexmark/nexmark-generator.ts';
import { NEXMARK_PORTS, nexmarkColumnNames } from '../../../../engine/graph/nexmark.ts';

function ctx(subtask: number, parallelism: number): SourceContext {
  return { subtask, parallelism, resolvePath: (p) => p, badRecord: () => assert.fail('no bad records') };
}

type ByPort = Record<string, string[]>;

/** Reads every subtask of a parallelism to its end, `batch` events per read. */
async function readAll(events: number, seed: number, parallelism: number, batch = 977): Promise<ByPort> {
  const out: ByPort = { person: [], auction: [], bid: [] };
  for (let s = 0; s < parallelism; s++) {
    const r = new NexmarkSourceReader(nexmarkParams({ events, seed }), ctx(s, parallelism));
    for (;;) {
      const res = await r.read(batch);
      res.rows.forEach((row, i) => out[res.ports![i]].push(JSON.stringify(row)));
      if (res.end) break;
    }
  }
  return out;
}

async function generate(
  events: number,
  seed: number,
  extra: string[] = [],
): Promise<{ code: number; dir: string; err: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'weir-nexmark-gen-'));
  const err: string[] = [];
  const code = await main(
    ['nexmark', 'generate', '--events', String(events), '--seed', String(seed), '--out', dir, ...extra],
    {
      out: () => {},
      err: (t) => err.push(t),
    },
  );
  return { code, dir, err: err.join('\n') };
}

const lines = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '');

test('weir nexmark generate writes exactly the events the source emits, at parallelism 1 and 3', async () => {
  const { code, dir } = await generate(20_000, 11);
  try {
    assert.equal(code, 0);
    const files = Object.fromEntries(NEXMARK_PORTS.map((p) => [p, lines(join(dir, `${p}.jsonl`))]));
    assert.deepEqual(
      NEXMARK_PORTS.map((p) => files[p].length),
      [400, 1200, 18_400],
      '1 : 3 : 46 per 50 events',
    );
    assert.deepEqual(await readAll(20_000, 11, 1), files, 'parallelism 1: same events in the same order');
    const p3 = await readAll(20_000, 11, 3);
    for (const p of NEXMARK_PORTS) assert.deepEqual([...p3[p]].sort(), [...files[p]].sort(), `parallelism 3, ${p}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a restored reader continues exactly where the checkpointed one stopped, also at another parallelism', async () => {
  const params = nexmarkParams({ events: 5_000, seed: 3 });
  const whole = await readAll(5_000, 3, 1);
  // Two subtasks read some, checkpoint; three new subtasks take over their positions.
  const seen: ByPort = { person: [], auction: [], bid: [] };
  const positions: unknown[] = [];
  for (let s = 0; s < 2; s++) {
    const r = new NexmarkSourceReader(params, ctx(s, 2));
    const res = await r.read(700 + s * 300);
    res.rows.forEach((row, i) => seen[res.ports![i]].push(JSON.stringify(row)));
    positions.push(r.position());
  }
  for (let s = 0; s < 3; s++) {
    const r = new NexmarkSourceReader(params, ctx(s, 3), positions);
    let last = -Infinity;
    for (;;) {
      const res = await r.read(500);
      res.rows.forEach((row, i) => seen[res.ports![i]].push(JSON.stringify(row)));
      for (const t of res.ts) {
        assert.ok(t >= last, 'event time never decreases within a subtask');
        last = t;
      }
      if (res.end) break;
    }
  }
  for (const p of NEXMARK_PORTS) assert.deepEqual(seen[p].sort(), [...whole[p]].sort(), p);
});

test("Flink's structure: ids, hot sellers/auctions/bidders, columns, event-time spacing", () => {
  const g = new NexmarkGenerator(nexmarkParams({ events: 100_000, seed: 0 }));
  const person = g.event(50);
  const auction = g.event(51);
  const bid = g.event(60);
  assert.deepEqual(Object.keys(person), nexmarkColumnNames('person'));
  assert.deepEqual(Object.keys(auction), nexmarkColumnNames('auction'));
  assert.deepEqual(Object.keys(bid), nexmarkColumnNames('bid'));
  assert.equal(person.id, 1001, 'person n/50 + 1000');
  assert.equal(auction.id, 1003, 'auction 3 per 50 events + 1000');
  // 10 000 events per second of event time by default: event 10 is 1 ms after event 0.
  assert.equal(g.timestamp(10) - g.timestamp(0), 1);
  assert.equal(g.timestamp(100_000) - g.timestamp(0), 10_000);
  let hotAuction = 0;
  let hotBidder = 0;
  let hotSeller = 0;
  let bids = 0;
  let auctions = 0;
  const states = new Set<unknown>();
  for (let n = 0; n < 100_000; n++) {
    const e = g.event(n);
    if ('bidder' in e) {
      bids++;
      // Hot ids: the latest auction / person id rounded down to a multiple of 100 (bidders + 1).
      if (((e.auction as number) - 1000) % 100 === 0) hotAuction++;
      if (((e.bidder as number) - 2001) % 100 === 0) hotBidder++;
      assert.ok((e.dateTime as number) === g.timestamp(n));
    } else if ('seller' in e) {
      auctions++;
      if (((e.seller as number) - 1000) % 100 === 0) hotSeller++;
      assert.ok((e.category as number) >= 10 && (e.category as number) <= 14);
      assert.ok((e.expires as number) > (e.dateTime as number));
      assert.ok((e.reserve as number) >= (e.initialBid as number));
    } else states.add(e.state);
  }
  // Flink's ratios: 1 in 2 bids on a hot auction, 3 in 4 from a hot bidder, 3 in 4 auctions by a hot seller.
  assert.ok(Math.abs(hotAuction / bids - 0.5) < 0.02, `hot auctions ${hotAuction / bids}`);
  assert.ok(Math.abs(hotBidder / bids - 0.75) < 0.02, `hot bidders ${hotBidder / bids}`);
  assert.ok(Math.abs(hotSeller / auctions - 0.75) < 0.05, `hot sellers ${hotSeller / auctions}`);
  assert.deepEqual([...states].sort(), ['AZ', 'CA', 'ID', 'OR', 'WA', 'WY']);
});

test('the same seed gives the same events, another seed other ones', () => {
  const a = new NexmarkGenerator(nexmarkParams({ seed: 1 }));
  const b = new NexmarkGenerator(nexmarkParams({ seed: 1 }));
  const c = new NexmarkGenerator(nexmarkParams({ seed: 2 }));
  let differ = 0;
  for (let n = 0; n < 500; n++) {
    assert.deepEqual(a.event(n), b.event(n));
    if (JSON.stringify(a.event(n)) !== JSON.stringify(c.event(n))) differ++;
  }
  assert.ok(differ > 450, `${differ} of 500 events differ between seeds`);
});

test('weir nexmark generate: clear errors for bad flags', async () => {
  for (const [args, message] of [
    [['--events', '0'], '--events: expected a positive integer'],
    [['--events', '1.5'], '--events: expected a positive integer'],
    [['--events', '10', '--seed=-1'], '--seed: expected a non-negative integer'],
    [['--events', '10', '--rate', 'fast'], "--rate: expected a positive number, got 'fast'"],
  ] as const) {
    const dir = mkdtempSync(join(tmpdir(), 'weir-nexmark-bad-'));
    const err: string[] = [];
    const code = await main(['nexmark', 'generate', '--out', dir, ...args], { out: () => {}, err: (t) => err.push(t) });
    rmSync(dir, { recursive: true, force: true });
    assert.equal(code, 2, args.join(' '));
    assert.match(err.join('\n'), new RegExp(message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  }
  const missing: string[] = [];
  assert.equal(await main(['nexmark', 'generate', '--events', '5'], { out: () => {}, err: (t) => missing.push(t) }), 2);
  assert.match(missing.join('\n'), /missing --out DIR/);
});
