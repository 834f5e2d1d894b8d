/**
 * Guards for test/examples/nexmark-queries.test.ts: on the data set each query's test generates
 * (its reference's `weir-test` options), the reference result shows what the query is about, so a
 * Weir document that got that part wrong could not pass by the data never exercising it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateNexmark, referenceOptions, referenceRows, type Rows } from '../support/nexmark-reference.ts';

const DEFAULT_EVENTS = 50_000; // as nexmark-queries.test.ts
const SEED = 7;

async function referenceOf(query: string): Promise<Rows> {
  const opts = referenceOptions(query);
  const dir = mkdtempSync(join(tmpdir(), `weir-nexmark-guard-${query}-`));
  try {
    await generateNexmark(opts.events ?? DEFAULT_EVENTS, opts.seed ?? SEED, dir, opts.baseTime);
    return await referenceRows(query, dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const distinct = (rows: Rows, col: string): number => new Set(rows.map((r) => r[col])).size;

test('q8 and q12 span several 10-second windows; q11 has sessions of many bids', async () => {
  assert.ok(distinct(await referenceOf('q8'), 'stime') > 1);
  assert.ok(distinct(await referenceOf('q12'), 'starttime') > 1);
  assert.ok((await referenceOf('q11')).some((r) => (r.bid_count as number) > 10));
});

test('q15 and q16 span midnight (UTC), with bids in every price rank', async () => {
  const q15 = await referenceOf('q15');
  assert.deepEqual(q15.map((r) => r.day).sort(), ['2023-11-14', '2023-11-15']);
  assert.ok(q15.every((r) => (r.rank1_bids as number) > 0 && (r.rank3_bids as number) > 0));
  assert.ok(distinct(await referenceOf('q16'), 'channel') > 4, 'named channels and channel-N');
});

test('q18 has bids of one bidder on one auction in the same millisecond (the ties its reference documents)', async () => {
  const opts = referenceOptions('q18');
  const dir = mkdtempSync(join(tmpdir(), 'weir-nexmark-guard-ties-'));
  try {
    await generateNexmark(opts.events ?? DEFAULT_EVENTS, SEED, dir);
    const { DuckDBInstance } = await import('@duckdb/node-api');
    const conn = await (await DuckDBInstance.create(':memory:')).connect();
    const r = await conn.runAndReadAll(
      `SELECT count(*) AS n FROM (SELECT bidder, auction, "dateTime" FROM read_json('${join(dir, 'bid.jsonl')}', format = 'newline_delimited') GROUP BY ALL HAVING count(*) > 1)`,
    );
    conn.closeSync();
    assert.ok(Number(r.getRowObjects()[0].n) > 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('q19 ranks ten bids for some auctions; q21 takes both CASE branches; q9 finds winners', async () => {
  assert.ok((await referenceOf('q19')).some((r) => r.rank_number === 10));
  const q21 = await referenceOf('q21');
  assert.ok(q21.some((r) => r.channel_id === '0') && q21.some((r) => !['0', '1', '2', '3'].includes(r.channel_id as string)));
  assert.ok((await referenceOf('q9')).length > 100);
});
