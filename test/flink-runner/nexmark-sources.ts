/**
 * The Nexmark suite's own Flink SQL (examples/nexmark/qN.sql) made runnable from files on both
 * sides. The suite reads its `nexmark` connector (nexmark-flink, not on Maven Central) and writes
 * to `blackhole`; here only those DDL change:
 *
 * - the events come from `weir nexmark generate` (person/auction/bid.jsonl), with their epoch
 *   milliseconds renamed to `dateTime_ms` / `expires_ms`, and `person`, `auction` and `bid` are
 *   filesystem tables whose `dateTime` (and `expires`) are computed as TIMESTAMP_LTZ(3) from them,
 *   watermarked 4 seconds behind as in the suite's DDL (`queries/ddl_gen.sql`);
 * - each `'connector' = 'blackhole'` sink becomes a JSON filesystem sink (`debezium-json` for the
 *   queries whose result updates), so that its rows can be read.
 *
 * The queries' SELECTs and INSERTs are the suite's text, untouched.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN } from './runner-support.ts';

const TABLES: Record<string, string> = {
  person: `CREATE TABLE person (
  id BIGINT, name STRING, emailAddress STRING, creditCard STRING, city STRING, state STRING,
  dateTime_ms BIGINT, extra STRING,
  \`dateTime\` AS TO_TIMESTAMP_LTZ(dateTime_ms, 3),
  WATERMARK FOR \`dateTime\` AS \`dateTime\` - INTERVAL '4' SECOND
)`,
  auction: `CREATE TABLE auction (
  id BIGINT, itemName STRING, description STRING, initialBid BIGINT, reserve BIGINT,
  dateTime_ms BIGINT, expires_ms BIGINT, seller BIGINT, category BIGINT, extra STRING,
  \`dateTime\` AS TO_TIMESTAMP_LTZ(dateTime_ms, 3),
  expires AS TO_TIMESTAMP_LTZ(expires_ms, 3),
  WATERMARK FOR \`dateTime\` AS \`dateTime\` - INTERVAL '4' SECOND
)`,
  bid: `CREATE TABLE bid (
  auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, url STRING,
  dateTime_ms BIGINT, extra STRING,
  \`dateTime\` AS TO_TIMESTAMP_LTZ(dateTime_ms, 3),
  WATERMARK FOR \`dateTime\` AS \`dateTime\` - INTERVAL '4' SECOND
)`,
};

/** Writes person/auction/bid.jsonl of `events` events (seed 7) into `dir`, times renamed as above. */
export function writeNexmarkFiles(dir: string, events: number): void {
  const r = spawnSync(
    process.execPath,
    [BIN, 'nexmark', 'generate', '--events', String(events), '--seed', '7', '--out', dir],
    {
      encoding: 'utf8',
    },
  );
  if (r.status !== 0) throw new Error(`weir nexmark generate failed: ${r.stderr}`);
  for (const t of Object.keys(TABLES)) {
    const file = join(dir, `${t}.jsonl`);
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replaceAll('"dateTime":', '"dateTime_ms":').replaceAll('"expires":', '"expires_ms":'),
    );
  }
}

/**
 * The script of a query reading the files of `dir` and writing its sink under `dir`/out/: the
 * suite's text with the source tables it reads declared first and its blackhole sinks rewritten.
 */
export function nexmarkScript(suiteSql: string, dir: string, updating: boolean): string {
  const body = suiteSql.replace(
    /'connector'\s*=\s*'blackhole'/g,
    `'connector' = 'filesystem', 'path' = 'file://${dir}/out', 'format' = '${updating ? 'debezium-json' : 'json'}'`,
  );
  const code = body.replace(/--[^\n]*/g, '');
  const ddl = Object.entries(TABLES)
    // A table the query reads: after FROM, JOIN, TABLE or a comma (a column may share its name: bid.auction).
    .filter(([name]) => new RegExp(`\\b(FROM|JOIN|TABLE|,)\\s*${name}\\b`, 'i').test(code))
    .map(
      ([name, columns]) =>
        `${columns} WITH (\n  'connector' = 'filesystem',\n  'path' = 'file://${dir}/${name}.jsonl',\n  'format' = 'json'\n);\n`,
    );
  return `${ddl.join('\n')}\n${body}`;
}
