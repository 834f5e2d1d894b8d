/**
 * The file-source bench's peers, run in the same process on the same file and the same job
 * (orders with amount > 10, COUNT and exact SUM(amount) per category per 10 s tumbling window,
 * results written as JSON lines):
 *  - a hand-written loop: read 1 MB chunks, split lines, `JSON.parse` each, a Map of windows fired
 *    as the bounded-out-of-orderness watermark passes their end (checked every 1024 records, like
 *    the engine's per-batch watermark);
 *  - DuckDB: `read_json` with the same declared columns and the same GROUP BY, written with COPY.
 * Each returns its wall time and a checksum (rows, total cents) the bench compares with the engine's.
 */
import { closeSync, fsyncSync, openSync, readSync, writeSync } from 'node:fs';
import { ORDERS_JITTER } from './orders-data.ts';

export interface PeerResult {
  ms: number;
  rows: number;
  /** Sum of every window's total, in cents: the three sides must agree exactly. */
  cents: number;
}

export const WINDOW_MS = 10_000;
export const MIN_AMOUNT = 10;

export function handJsonLoop(file: string, outFile: string): PeerResult {
  const t0 = performance.now();
  const out = openSync(outFile, 'w');
  const windows = new Map<number, Map<string, { n: number; cents: number }>>();
  let maxTs = -Infinity;
  let rows = 0;
  let allCents = 0;
  const fire = (wm: number) => {
    let text = '';
    for (const [start, keys] of windows) {
      if (start + WINDOW_MS - 1 > wm) continue;
      const ws = new Date(start).toISOString();
      const we = new Date(start + WINDOW_MS).toISOString();
      for (const [category, a] of keys) {
        text += JSON.stringify({ window_start: ws, window_end: we, category, n: a.n, total: a.cents / 100 }) + '\n';
        rows++;
        allCents += a.cents;
      }
      windows.delete(start);
    }
    if (text) writeSync(out, text);
  };
  const fd = openSync(file, 'r');
  const chunk = Buffer.allocUnsafe(1 << 20);
  let rest = '';
  let seen = 0;
  for (let pos = 0; ;) {
    const n = readSync(fd, chunk, 0, chunk.length, pos);
    if (n === 0) break;
    pos += n;
    const text = rest + chunk.toString('utf8', 0, n);
    let start = 0;
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
      const o = JSON.parse(text.slice(start, nl)) as { amount: number; category: string; ts: number };
      start = nl + 1;
      if (o.ts > maxTs) maxTs = o.ts;
      if (o.amount > MIN_AMOUNT) {
        const ws = o.ts - (((o.ts % WINDOW_MS) + WINDOW_MS) % WINDOW_MS);
        let keys = windows.get(ws);
        if (!keys) windows.set(ws, (keys = new Map()));
        const cents = Math.round(o.amount * 100);
        const a = keys.get(o.category);
        if (a) {
          a.n++;
          a.cents += cents;
        } else keys.set(o.category, { n: 1, cents });
      }
      if ((++seen & 1023) === 0) fire(maxTs - ORDERS_JITTER - 1);
    }
    rest = text.slice(start);
  }
  closeSync(fd);
  fire(Infinity);
  // Durable, as the engine's committed output is (bench/hand-loop.ts says why).
  fsyncSync(out);
  closeSync(out);
  return { ms: performance.now() - t0, rows, cents: allCents };
}

export async function duckdbJob(file: string, outFile: string): Promise<PeerResult & { threads: number }> {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const instance = await DuckDBInstance.create(':memory:');
  const con = await instance.connect();
  try {
    const threads = Number((await con.runAndReadAll("SELECT current_setting('threads')")).getRows()[0][0]);
    const t0 = performance.now();
    const q = `SELECT to_timestamp((ts - ts % ${WINDOW_MS}) / 1000) AS window_start,
        to_timestamp((ts - ts % ${WINDOW_MS} + ${WINDOW_MS}) / 1000) AS window_end,
        category, count(*) AS n, sum(amount) AS total
      FROM read_json('${file}', format = 'newline_delimited',
        columns = {id: 'BIGINT', "user": 'VARCHAR', amount: 'DECIMAL(10,2)', category: 'VARCHAR', ts: 'BIGINT'})
      WHERE amount > ${MIN_AMOUNT} GROUP BY ALL`;
    await con.run(`COPY (${q}) TO '${outFile}' (FORMAT JSON)`);
    const ms = performance.now() - t0;
    const check = (
      await con.runAndReadAll(`SELECT count(*), CAST(sum(total) * 100 AS BIGINT) FROM read_json('${outFile}')`)
    ).getRows()[0];
    return { ms, rows: Number(check[0]), cents: Number(check[1]), threads };
  } finally {
    con.closeSync();
    instance.closeSync();
  }
}
