/**
 * The Nexmark suite's own Flink SQL (examples/nexmark/qN.sql) made runnable from files on both
 * sides. The suite reads its `nexmark` connector (nexmark-flink, not on Maven Central) and writes
 * to `blackhole`; here only those DDL change:
 *
 * - the events come from `weir nexmark generate` (person/auction/bid.jsonl), their epoch
 *   milliseconds `dateTime` (and `expires`) rewritten as UTC SQL timestamp text
 *   (`2023-11-14 22:13:20.000`), which Flink's json format reads as TIMESTAMP(3) and Weir's file
 *   source as an event time; `person`, `auction` and `bid` are filesystem tables with exactly the
 *   suite's columns (`queries/ddl_gen.sql`), watermarked 4 seconds behind as there, so that a
 *   query's `SELECT *` (q19) writes just the suite's columns;
 * - each `'connector' = 'blackhole'` sink becomes a JSON filesystem sink (`debezium-json` for the
 *   queries whose result updates), so that its rows can be read;
 * - q13's side input, a legacy table (`'connector.type' = 'filesystem'` on
 *   `${FLINK_HOME}/data/side_input.txt`, which Flink 1.20 and 2.x no longer read), becomes the
 *   same file as a filesystem CSV table: `side_input.txt` holds what the suite's
 *   `side_input_gen.sh` writes there, `key,value` for keys 0..9999 (value = the key's text).
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
  \`dateTime\` TIMESTAMP(3), extra STRING,
  WATERMARK FOR \`dateTime\` AS \`dateTime\` - INTERVAL '4' SECOND
)`,
  auction: `CREATE TABLE auction (
  id BIGINT, itemName STRING, description STRING, initialBid BIGINT, reserve BIGINT,
  \`dateTime\` TIMESTAMP(3), expires TIMESTAMP(3), seller BIGINT, category BIGINT, extra STRING,
  WATERMARK FOR \`dateTime\` AS \`dateTime\` - INTERVAL '4' SECOND
)`,
  bid: `CREATE TABLE bid (
  auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, url STRING,
  \`dateTime\` TIMESTAMP(3), extra STRING,
  WATERMARK FOR \`dateTime\` AS \`dateTime\` - INTERVAL '4' SECOND
)`,
};

/** The rows of the suite's side input (SideInputGenerator --num 10000). */
const SIDE_INPUT_KEYS = 10_000;

/** Epoch milliseconds as the SQL timestamp text of json.timestamp-format.standard 'SQL', in UTC. */
function sqlTimestamp(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').replace('Z', '');
}

/** Writes person/auction/bid.jsonl of `events` events (seed 7) into `dir`, times as text as above. */
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
    const rows = readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => {
        const row = JSON.parse(l) as Record<string, unknown>;
        for (const k of ['dateTime', 'expires']) if (typeof row[k] === 'number') row[k] = sqlTimestamp(row[k]);
        return `${JSON.stringify(row)}\n`;
      });
    writeFileSync(file, rows.join(''));
  }
  const sideInput = Array.from({ length: SIDE_INPUT_KEYS }, (_, k) => `${k},${k}\n`);
  writeFileSync(join(dir, 'side_input.txt'), sideInput.join(''));
}

/**
 * The script of a query reading the files of `dir` and writing its sink under `dir`/out/: the
 * suite's text with the source tables it reads declared first and its blackhole sinks rewritten.
 */
export function nexmarkScript(suiteSql: string, dir: string, updating: boolean): string {
  const body = suiteSql
    .replace(
      /'connector'\s*=\s*'blackhole'/g,
      `'connector' = 'filesystem', 'path' = 'file://${dir}/out', 'format' = '${updating ? 'debezium-json' : 'json'}'`,
    )
    // The legacy keys of q13's side input, as today's filesystem connector names them.
    .replace(/'connector\.type'(\s*=\s*'filesystem')/g, "'connector'$1")
    .replace(/'connector\.path'\s*=\s*'file:\/\/\$\{FLINK_HOME\}\/data\/([^']+)'/g, `'path' = 'file://${dir}/$1'`)
    .replace(/'format\.type'(\s*=\s*'csv')/g, "'format'$1");
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
