/**
 * Jobs and references for the `sink.postgres` tests: generated records appended (one row per seq),
 * and a per-key aggregate upserted (one row per key). The references are plain loops over the
 * generator's own record function, independent of the engine's operators.
 */
import { generatorParams, generatorRecord } from '../../../../engine/connectors/generator-source.ts';

export const GEN = { seed: 7, keys: 16, outOfOrderness: 0, step: 10 };

export interface PgJobOptions {
  name: string;
  url: string;
  table: string;
  count: number;
  rate?: number;
  parallelism?: number;
  interval?: string;
  attempts?: number;
}

function settings(o: PgJobOptions) {
  return {
    parallelism: o.parallelism ?? 2,
    stateBackend: 'fs',
    checkpointing: { interval: o.interval ?? '200ms', dir: 'checkpoints', retained: 2 },
    restart: { attempts: o.attempts ?? 20, delay: '50ms' },
  };
}

function generator(o: PgJobOptions) {
  return {
    id: 'gen',
    type: 'source.generator',
    config: { ...GEN, count: o.count, ...(o.rate ? { rate: o.rate } : {}) },
  };
}

/** gen -> sink.postgres (append): the table gets one row per generated record. */
export function appendJob(o: PgJobOptions) {
  return {
    format: 'weir.job/v1',
    name: o.name,
    settings: settings(o),
    nodes: [generator(o), { id: 'pg', type: 'sink.postgres', config: { url: o.url, table: o.table, mode: 'append' } }],
    edges: [{ from: 'gen', to: 'pg' }],
  };
}

/** gen -> aggregate per key -> sink.postgres (upsert by key): the table gets the final aggregate. */
export function upsertJob(o: PgJobOptions) {
  return {
    format: 'weir.job/v1',
    name: o.name,
    settings: settings(o),
    nodes: [
      generator(o),
      { id: 'agg', type: 'aggregate', config: { keyBy: 'key', aggregates: 'COUNT(*) AS n, SUM(value) AS total' } },
      { id: 'pg', type: 'sink.postgres', config: { url: o.url, table: o.table, mode: 'upsert', key: 'key' } },
    ],
    edges: [
      { from: 'gen', to: 'agg' },
      { from: 'agg', to: 'pg' },
    ],
  };
}

/** Both at once, from one generator: gen -> sink.postgres 'pga' (append); gen -> aggregate -> 'pgu' (upsert). */
export function appendAndUpsertJob(o: PgJobOptions & { upsertTable: string }) {
  const a = appendJob(o);
  const u = upsertJob({ ...o, table: o.upsertTable });
  return {
    ...a,
    nodes: [generator(o), { ...a.nodes[1], id: 'pga' }, u.nodes[1], { ...u.nodes[2], id: 'pgu' }],
    edges: [
      { from: 'gen', to: 'pga' },
      { from: 'gen', to: 'agg' },
      { from: 'agg', to: 'pgu' },
    ],
  };
}

export const APPEND_TABLE_SQL = (t: string) =>
  `CREATE TABLE ${t} (seq bigint NOT NULL, key text NOT NULL, value bigint, ts bigint)`;
export const UPSERT_TABLE_SQL = (t: string) => `CREATE TABLE ${t} (key text PRIMARY KEY, n bigint, total numeric)`;

/** `seq|key|value|ts` per generated record, sorted. */
export function appendReference(count: number): string[] {
  const p = generatorParams({ ...GEN, count });
  const out: string[] = [];
  for (let s = 0; s < count; s++) {
    const r = generatorRecord(p, s);
    out.push(`${r.seq}|${r.key}|${r.value}|${r.ts}`);
  }
  return out.sort();
}

/** `key|n|total` per key, sorted. */
export function upsertReference(count: number): string[] {
  const p = generatorParams({ ...GEN, count });
  const byKey = new Map<string, { n: number; total: number }>();
  for (let s = 0; s < count; s++) {
    const r = generatorRecord(p, s);
    const a = byKey.get(r.key) ?? { n: 0, total: 0 };
    a.n++;
    a.total += r.value;
    byKey.set(r.key, a);
  }
  return [...byKey].map(([k, a]) => `${k}|${a.n}|${a.total}`).sort();
}

export const APPEND_ROWS_SQL = (t: string) => `SELECT seq, key, value, ts FROM ${t}`;
export const UPSERT_ROWS_SQL = (t: string) => `SELECT key, n, total FROM ${t}`;

/** Rows as sorted `a|b|c` strings (bigint and numeric come back as text from pg). */
export function rowStrings(rows: Array<Record<string, unknown>>): string[] {
  return rows.map((r) => Object.values(r).map(String).join('|')).sort();
}
