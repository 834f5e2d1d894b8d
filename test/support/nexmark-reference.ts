/**
 * Checks a Nexmark query of examples/nexmark against an independent reference:
 *  1. `weir nexmark generate` (the CLI's code, in process) writes the events of (events, seed);
 *  2. the query's canvas document runs in process with its source set to the same events and seed
 *     and its file sink moved into a temporary folder;
 *  3. DuckDB runs the query's reference SQL (`qN.reference.sql`, adapted from the suite's
 *     `qN.sql`) over the generated files, as views `person`, `auction` and `bid`;
 *  4. the committed output (a changelog folded into its final table) equals the reference's rows,
 *     as multisets, numbers compared by value.
 * Generated event times never decrease, so with the 4-second watermark delay no event is late and
 * the batch result equals the streaming result.
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';
import { main } from '../../engine/cli/main.ts';
import { NEXMARK_COLUMNS, NEXMARK_PORTS } from '../../engine/graph/nexmark.ts';
import type { JobDocument, StateBackendKind } from '../../engine/graph/types.ts';
import { runJobInProcess } from './harness/run-in-process.ts';

export const NEXMARK_EXAMPLES = fileURLToPath(new URL('../../examples/nexmark/', import.meta.url));
/** CSV files beside the queries (a header line, then rows), each also a DuckDB view named by its file. */
const SIDE_INPUTS = join(NEXMARK_EXAMPLES, 'data');

export interface NexmarkCase {
  /** `q5`: examples/nexmark/q5.weir.json, q5.sql and q5.reference.sql. */
  query: string;
  events: number;
  seed: number;
  /** Event time of event 0 (the node's `baseTime`), when the query needs events at a given time. */
  baseTime?: number;
  stateBackend?: StateBackendKind;
  parallelism?: number;
}

/**
 * Options a reference file may set in a first-line comment: `-- weir-test: {"events": 200000}`;
 * also `baseTime` (epoch ms of event 0), e.g. just before midnight for the daily queries.
 */
export function referenceOptions(query: string): { events?: number; seed?: number; baseTime?: number } {
  const first = readFileSync(join(NEXMARK_EXAMPLES, `${query}.reference.sql`), 'utf8').split('\n')[0];
  const m = /^--\s*weir-test:\s*(\{.*\})\s*$/.exec(first);
  return m ? (JSON.parse(m[1]) as { events?: number; seed?: number; baseTime?: number }) : {};
}

/** `weir nexmark generate --events N --seed S --out DIR`, in this process. */
export async function generateNexmark(events: number, seed: number, dir: string, baseTime?: number): Promise<void> {
  const err: string[] = [];
  const args = ['nexmark', 'generate', '--events', String(events), '--seed', String(seed), '--out', dir];
  if (baseTime !== undefined) args.push('--base-time', String(baseTime));
  const code = await main(args, {
    out: () => {},
    err: (t) => err.push(t),
  });
  if (code !== 0) throw new Error(`weir nexmark generate failed (${code}): ${err.join('\n')}`);
}

export type Rows = Array<Record<string, unknown>>;

/** The query's job with its source set to (events, seed), run to its end; the final table of its one file sink. */
export async function runNexmarkQuery(c: NexmarkCase, workDir: string): Promise<Rows> {
  const doc = JSON.parse(readFileSync(join(NEXMARK_EXAMPLES, `${c.query}.weir.json`), 'utf8')) as JobDocument;
  const sources = doc.nodes.filter((n) => n.type === 'source.nexmark');
  if (sources.length !== 1) throw new Error(`${c.query}: expected one source.nexmark node, found ${sources.length}`);
  for (const n of sources)
    n.config = {
      ...n.config,
      events: c.events,
      seed: c.seed,
      ...(c.baseTime !== undefined ? { baseTime: c.baseTime } : {}),
    };
  const sinks = doc.nodes.filter((n) => n.type === 'sink.file');
  if (sinks.length !== 1) throw new Error(`${c.query}: expected one sink.file node, found ${sinks.length}`);
  doc.settings = { ...doc.settings, ...(c.stateBackend ? { stateBackend: c.stateBackend } : {}) };
  if (c.parallelism) doc.settings.parallelism = c.parallelism;
  if (doc.settings.checkpointing) doc.settings.checkpointing = { ...doc.settings.checkpointing, dir: 'checkpoints' };
  writeFileSync(join(workDir, 'job.weir.json'), JSON.stringify(doc));
  // Side inputs the documents read by relative path (q13's data/side_input.csv).
  if (existsSync(SIDE_INPUTS)) cpSync(SIDE_INPUTS, join(workDir, 'data'), { recursive: true });
  const run = await runJobInProcess(doc, workDir);
  if (run.result.status !== 'finished') throw new Error(`${c.query}: job ended ${JSON.stringify(run.result)}`);
  const sink = sinks[0];
  const rows = run.sinks[sink.id];
  return sink.type === 'sink.file' && sink.config.format === 'changelog-json' ? finalTable(rows) : rows;
}

/** A changelog-json output folded into its final table (retract semantics). */
export function finalTable(changes: Rows): Rows {
  const live = new Map<string, { row: Record<string, unknown>; n: number }>();
  // Each line is {"op": "+I" | "-U" | "+U" | "-D", "data": row}.
  for (const change of changes) {
    const op = change.op;
    const row = change.data as Record<string, unknown>;
    const key = JSON.stringify(row);
    const e = live.get(key) ?? { row, n: 0 };
    e.n += op === '-U' || op === '-D' ? -1 : 1;
    if (e.n === 0) live.delete(key);
    else live.set(key, e);
  }
  const out: Rows = [];
  for (const { row, n } of live.values()) {
    if (n < 0) throw new Error(`changelog retracts a row it never inserted: ${JSON.stringify(row)}`);
    for (let i = 0; i < n; i++) out.push(row);
  }
  return out;
}

const DUCKDB_TYPES: Record<string, string> = { BIGINT: 'BIGINT', STRING: 'VARCHAR' };

/** The query's reference SQL over the generated files, with DuckDB. */
export async function referenceRows(query: string, dataDir: string): Promise<Rows> {
  const sql = readFileSync(join(NEXMARK_EXAMPLES, `${query}.reference.sql`), 'utf8');
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  try {
    for (const port of NEXMARK_PORTS) {
      const cols = NEXMARK_COLUMNS[port].map(([name, t]) => `'${name}': '${DUCKDB_TYPES[t]}'`).join(', ');
      const file = join(dataDir, `${port}.jsonl`).replace(/'/g, "''");
      // `seq`: the event's line in its file, i.e. arrival order. Flink ranks rows that tie in a
      // Top-N's ORDER BY by arrival, so references break ties with it. (A single-file scan numbered
      // by row_number() OVER () keeps the file's order: DuckDB preserves insertion order.)
      await conn.run(
        `CREATE VIEW ${port} AS SELECT *, row_number() OVER () - 1 AS seq FROM read_json('${file}', format = 'newline_delimited', columns = {${cols}})`,
      );
    }
    for (const f of existsSync(SIDE_INPUTS) ? readdirSync(SIDE_INPUTS).filter((n) => n.endsWith('.csv')) : []) {
      const file = join(SIDE_INPUTS, f).replace(/'/g, "''");
      await conn.run(`CREATE VIEW ${f.slice(0, -4)} AS SELECT * FROM read_csv('${file}', header = true)`);
    }
    const reader = await conn.runAndReadAll(sql);
    return reader.getRowObjectsJS().map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, plain(v)])));
  } finally {
    conn.closeSync();
  }
}

function plain(v: unknown): unknown {
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof Date) return v.getTime();
  if (v !== null && typeof v === 'object' && 'toDouble' in v) return (v as { toDouble(): number }).toDouble();
  return v;
}

/** A row as comparable text: columns sorted by name, numbers (and numeric text) by value. */
export function canonicalRow(row: Record<string, unknown>): string {
  const norm = (v: unknown): unknown => {
    if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
    return v;
  };
  return JSON.stringify(
    Object.keys(row)
      .sort()
      .map((k) => [k, norm(row[k])]),
  );
}

export interface NexmarkComparison {
  actual: string[];
  expected: string[];
  missing: string[];
  unexpected: string[];
}

export function compareRows(actual: Rows, expected: Rows): NexmarkComparison {
  const a = actual.map(canonicalRow).sort();
  const e = expected.map(canonicalRow).sort();
  const count = (xs: string[]) => xs.reduce((m, x) => m.set(x, (m.get(x) ?? 0) + 1), new Map<string, number>());
  const ca = count(a);
  const ce = count(e);
  const missing = e.filter((x) => (ca.get(x) ?? 0) < (ce.get(x) ?? 0));
  const unexpected = a.filter((x) => (ce.get(x) ?? 0) < (ca.get(x) ?? 0));
  return { actual: a, expected: e, missing: [...new Set(missing)], unexpected: [...new Set(unexpected)] };
}

/** Generate, run, reference, compare: the whole check of one query. */
export async function checkNexmarkQuery(c: NexmarkCase): Promise<NexmarkComparison> {
  const dir = mkdtempSync(join(tmpdir(), `weir-nexmark-${c.query}-`));
  try {
    const data = join(dir, 'data');
    await generateNexmark(c.events, c.seed, data, c.baseTime);
    const actual = await runNexmarkQuery(c, dir);
    const expected = await referenceRows(c.query, data);
    return compareRows(actual, expected);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
