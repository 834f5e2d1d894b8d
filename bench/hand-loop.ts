/**
 * The hand-written baseline: one loop that generates the same records, keeps per-(window, key)
 * COUNT and SUM in a Map, fires windows as the bounded-out-of-orderness watermark passes their end
 * (checked every 1024 records, like the engine's per-batch watermark) and writes JSON lines,
 * flushed to disk (fsync) before it counts as done: the engine's file sink commits durably, and a
 * baseline that leaves its output in the page cache would be doing less work.
 */
import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs';
import {
  generatorKeyIndex,
  generatorTs,
  generatorValue,
  type GeneratorParams,
} from '../engine/connectors/generator-source.ts';

export function handLoop(
  p: GeneratorParams,
  count: number,
  windowMs: number,
  outFile: string,
): { rows: number; ms: number } {
  const t0 = performance.now();
  const fd = openSync(outFile, 'w');
  const windows = new Map<number, Map<string, { n: number; total: number }>>();
  let maxTs = -Infinity;
  let rows = 0;
  const fire = (wm: number) => {
    let text = '';
    for (const [start, keys] of windows) {
      if (start + windowMs - 1 > wm) continue;
      const ws = new Date(start).toISOString();
      const we = new Date(start + windowMs).toISOString();
      for (const [key, a] of keys) {
        text += JSON.stringify({ window_start: ws, window_end: we, key, n: a.n, total: a.total }) + '\n';
        rows++;
      }
      windows.delete(start);
    }
    if (text) writeSync(fd, text);
  };
  // Key names from a table, as the engine's generator does: the baseline must not pay for string
  // building that the engine does not do.
  const names = Array.from({ length: p.keys }, (_, i) => 'k' + i);
  for (let seq = 0; seq < count; seq++) {
    const ts = generatorTs(p, seq);
    const key = names[generatorKeyIndex(p, seq)];
    const value = generatorValue(p, seq);
    if (ts > maxTs) maxTs = ts;
    const start = ts - (((ts % windowMs) + windowMs) % windowMs);
    let keys = windows.get(start);
    if (!keys) {
      keys = new Map();
      windows.set(start, keys);
    }
    const a = keys.get(key);
    if (a) {
      a.n++;
      a.total += value;
    } else keys.set(key, { n: 1, total: value });
    if ((seq & 1023) === 1023) fire(maxTs - p.outOfOrderness - 1);
  }
  fire(Infinity);
  fsyncSync(fd);
  closeSync(fd);
  return { rows, ms: performance.now() - t0 };
}
