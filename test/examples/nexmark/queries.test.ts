/**
 * Each Nexmark query drawn as a canvas document (examples/nexmark/qN.weir.json) runs on a generated
 * data set, and its committed output (the final table, for changelog sinks) must equal DuckDB's
 * result of the suite's SQL over the same events as files (reference-queries.ts). Guards check that
 * the data exercises what the query is about (several days, both CASE branches, empty URL
 * directories...), so a query that drops rows cannot pass by accident.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { runJobInProcess } from '../../support/harness/run-in-process.ts';
import { generateNexmarkFiles, withGeneratedEvents } from './nexmark-files.ts';
import { REFERENCE_SQL } from './reference-queries.ts';

const EXAMPLES = fileURLToPath(new URL('../../../examples/nexmark/', import.meta.url));
const EVENTS = 4000;
const SEED = 7;

type Row = Record<string, unknown>;

/** The final table of a changelog-json sink: +I/+U add a row, -U/-D take one away. */
export function foldChangelog(lines: Row[]): Row[] {
  const table = new Map<string, { row: Row; n: number }>();
  for (const { op, data } of lines as Array<{ op: string; data: Row }>) {
    const key = JSON.stringify(sorted(data));
    const slot = table.get(key) ?? { row: data, n: 0 };
    if (op === '+I' || op === '+U') slot.n++;
    else if (op === '-U' || op === '-D') {
      assert.ok(slot.n > 0, `${op} of a row the table does not hold: ${key}`);
      slot.n--;
    } else assert.fail(`unknown op ${op}`);
    table.set(key, slot);
  }
  return [...table.values()].flatMap(({ row, n }) => Array.from({ length: n }, () => row));
}

const sorted = (r: Row): Row => Object.fromEntries(Object.entries(r).sort(([a], [b]) => (a < b ? -1 : 1)));
const canonical = (rows: Row[]): string[] => rows.map((r) => JSON.stringify(sorted(r))).sort();

describe('Nexmark queries: Weir equals a DuckDB reference over the generated files', () => {
  let dataDir: string;
  let conn: DuckDBConnection;
  const work: string[] = [];

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'weir-nexmark-data-'));
    await generateNexmarkFiles({ events: EVENTS, seed: SEED, out: dataDir });
    conn = await (await DuckDBInstance.create(':memory:')).connect();
    for (const table of ['person', 'auction', 'bid']) {
      // `seq`: the line number, so the reference can break ORDER BY ties by arrival as Flink does.
      const lines = readFileSync(join(dataDir, `${table}.jsonl`), 'utf8').split('\n').filter(Boolean);
      const withSeq = join(dataDir, `${table}.seq.jsonl`);
      writeFileSync(withSeq, lines.map((l, i) => `{"seq":${i},${l.slice(1)}`).join('\n') + '\n');
      await conn.run(`CREATE TABLE ${table} AS SELECT * FROM read_json('${withSeq}', format = 'newline_delimited')`);
    }
    await conn.run(
      `CREATE TABLE side_input AS SELECT * FROM read_csv('${join(EXAMPLES, 'data/side_input.csv')}', header = true, columns = {'key': 'BIGINT', 'value': 'VARCHAR'})`,
    );
  });
  after(() => {
    conn?.closeSync();
    for (const d of [dataDir, ...work]) rmSync(d, { recursive: true, force: true });
  });

  async function reference(q: string): Promise<Row[]> {
    const result = await conn.runAndReadAll(REFERENCE_SQL[q]);
    return result
      .getRowObjects()
      .map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'bigint' ? Number(v) : v])));
  }

  async function weir(q: string): Promise<Row[]> {
    const dir = mkdtempSync(join(tmpdir(), `weir-nexmark-${q}-`));
    work.push(dir);
    mkdirSync(join(dir, 'data'));
    cpSync(join(EXAMPLES, 'data/side_input.csv'), join(dir, 'data/side_input.csv'));
    const doc = JSON.parse(readFileSync(join(EXAMPLES, `${q}.weir.json`), 'utf8'));
    const job = withGeneratedEvents(doc, dataDir);
    const run = await runJobInProcess(job, dir);
    assert.equal(run.result.status, 'finished', run.result.cause);
    const sink = job.nodes.find((n) => n.id === 'out')!;
    return sink.config.format === 'changelog-json' ? foldChangelog(run.sinks.out) : run.sinks.out;
  }

  async function compare(q: string): Promise<Row[]> {
    const [actual, expected] = [await weir(q), await reference(q)];
    assert.ok(expected.length > 0, `${q}: the reference is empty, the data set does not exercise the query`);
    const a = canonical(actual),
      e = canonical(expected);
    const missing = e.filter((r) => !a.includes(r)).slice(0, 3);
    const extra = a.filter((r) => !e.includes(r)).slice(0, 3);
    assert.deepEqual(a, e, `${q}: ${a.length} rows vs ${e.length} expected\nmissing: ${missing.join('\n')}\nextra: ${extra.join('\n')}`);
    return expected;
  }

  it('q8 monitor new users (tumbling windows of persons and sellers, joined)', async () => {
    await compare('q8');
  });
  it('q9 winning bids (join, bid time within the auction, top 1 by price)', async () => {
    await compare('q9');
  });
  it('q11 user sessions (session windows, 10 s gap)', async () => {
    const rows = await compare('q11');
    assert.ok(rows.some((r) => (r.bid_count as number) > 1), 'some session holds several bids');
  });
  it('q12 bids per bidder in 10 s windows (event time instead of processing time)', async () => {
    await compare('q12');
  });
  it('q13 bounded side input join', async () => {
    await compare('q13');
  });
  it('q15 daily statistics (COUNT DISTINCT ... FILTER, DATE_FORMAT)', async () => {
    const rows = await compare('q15');
    assert.ok(rows.length > 1, 'the events span more than one day (UTC)');
    assert.ok(rows.some((r) => (r.rank3_bids as number) > 0 && (r.rank1_bids as number) > 0));
  });
  it('q16 daily statistics per channel, with the last minute', async () => {
    await compare('q16');
  });
  it('q17 daily statistics per auction (MIN, MAX, AVG, SUM)', async () => {
    await compare('q17');
  });
  it('q18 last bid per bidder and auction (deduplication)', async () => {
    await compare('q18');
  });
  it('q19 top 10 bids per auction', async () => {
    const rows = await compare('q19');
    assert.ok(rows.some((r) => r.rank_number === 10), 'some auction has at least 10 bids');
  });
  it('q20 bids joined with their auction, category 10', async () => {
    await compare('q20');
  });
  it('q21 channel id (CASE, REGEXP_EXTRACT)', async () => {
    const rows = await compare('q21');
    assert.ok(rows.some((r) => r.channel_id === '0') && rows.some((r) => !['0', '1', '2', '3'].includes(r.channel_id as string)));
  });
  it('q22 URL directories (SPLIT_INDEX)', async () => {
    const rows = await compare('q22');
    assert.ok(rows.some((r) => r.dir3 === null) && rows.some((r) => r.dir3 !== null), 'URLs of both depths');
  });
});
