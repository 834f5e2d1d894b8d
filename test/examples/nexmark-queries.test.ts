/**
 * Every Nexmark query in examples/nexmark (qN.weir.json) against its DuckDB reference
 * (qN.reference.sql) on generated data: see test/support/nexmark-reference.ts. New queries are
 * picked up by their files; a query without a reference fails.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { NEXMARK_EXAMPLES, checkNexmarkQuery, referenceOptions } from '../support/nexmark-reference.ts';

const DEFAULT_EVENTS = 50_000;
const SEED = 7;

const queries = readdirSync(NEXMARK_EXAMPLES)
  .map((f) => /^(q\d+)\.weir\.json$/.exec(f)?.[1])
  .filter((q): q is string => q !== undefined)
  .sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)));

test('examples/nexmark has queries, each with the suite SQL and a reference beside it', () => {
  assert.ok(queries.length >= 7, `found ${queries.join(', ')}`);
  for (const q of queries) {
    assert.ok(existsSync(join(NEXMARK_EXAMPLES, `${q}.sql`)), `${q}.sql (the Nexmark suite's query) is missing`);
    assert.ok(existsSync(join(NEXMARK_EXAMPLES, `${q}.reference.sql`)), `${q}.reference.sql is missing`);
  }
});

for (const query of queries) {
  test(`nexmark ${query}: Weir's output equals the DuckDB reference`, async () => {
    const opts = referenceOptions(query);
    const r = await checkNexmarkQuery({
      query,
      events: opts.events ?? DEFAULT_EVENTS,
      seed: opts.seed ?? SEED,
      baseTime: opts.baseTime,
    });
    // Guard: a reference that selects nothing would make the comparison vacuous.
    assert.ok(r.expected.length > 0, `${query}: the reference has no rows on this data set`);
    assert.deepEqual(
      { missing: r.missing.slice(0, 5), unexpected: r.unexpected.slice(0, 5) },
      { missing: [], unexpected: [] },
      `${query}: ${r.actual.length} rows from Weir, ${r.expected.length} from the reference`,
    );
    assert.equal(r.actual.length, r.expected.length);
  });
}

test('nexmark q5 at parallelism 2 on RocksDB equals the reference too (keyed windows and join across subtasks)', async () => {
  const r = await checkNexmarkQuery({ query: 'q5', events: DEFAULT_EVENTS, seed: SEED, parallelism: 2, stateBackend: 'rocksdb' });
  assert.ok(r.expected.length > 0);
  assert.deepEqual({ missing: r.missing.slice(0, 5), unexpected: r.unexpected.slice(0, 5) }, { missing: [], unexpected: [] });
  assert.equal(r.actual.length, r.expected.length);
});
