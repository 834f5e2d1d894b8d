/**
 * Changelog input for the window tests: a seeded stream of inserts, updates (-U of the old image
 * at its old event time, +U of the new one at a new time, so rows move between windows) and
 * deletes, with bounded-out-of-orderness watermarks, and an independent reference that keeps each
 * window's rows as a multiset and computes results from them when it fires (no accumulators).
 */
import type { Row, RowKind } from '../../../../../../engine/contracts/operator.ts';
import { iso, prng } from './window-fixtures.ts';

export type ChangelogEvent =
  { kind: 'batch'; rows: Row[]; ts: number[]; kinds: RowKind[] } | { kind: 'watermark'; watermark: number };

export const CHANGELOG_AGGREGATES =
  'COUNT(*) AS n, SUM(v) AS s, MIN(v) AS lo, MAX(v) AS hi, COUNT(DISTINCT v) AS d, COUNT(*) FILTER (WHERE v > 5) AS big';

/** Results of CHANGELOG_AGGREGATES over a window's rows, computed from scratch. */
function results(vs: number[]): Row {
  return {
    n: vs.length,
    s: vs.reduce((a, b) => a + b, 0),
    lo: Math.min(...vs),
    hi: Math.max(...vs),
    d: new Set(vs).size,
    big: vs.filter((v) => v > 5).length,
  };
}

export function randomChangelog(o: { seed: number; count: number; keys: number; jitter: number; delay: number }) {
  const rnd = prng(o.seed);
  const events: ChangelogEvent[] = [];
  const alive: Array<{ row: Row; ts: number }> = [];
  let time = 0;
  let maxTs = -Infinity;
  let nextId = 0;
  let retractions = 0;
  while (nextId < o.count) {
    const rows: Row[] = [];
    const ts: number[] = [];
    const kinds: RowKind[] = [];
    const push = (row: Row, t: number, kind: RowKind): void => {
      rows.push(row);
      ts.push(t);
      kinds.push(kind);
    };
    const size = 1 + Math.floor(rnd() * 12);
    for (let b = 0; b < size; b++) {
      time += 7;
      const at = Math.max(0, Math.round(time + (rnd() * 2 - 1) * o.jitter));
      const p = rnd();
      // Changes pick among recent rows, so that many of them land in windows not fired yet.
      const pick = alive.length > 0 ? alive.length - 1 - Math.floor(rnd() * Math.min(alive.length, 40)) : -1;
      if (pick < 0 || p < 0.55) {
        const row = { id: nextId++, user: `u${Math.floor(rnd() * o.keys)}`, v: Math.floor(rnd() * 10) };
        alive.push({ row, ts: at });
        push(row, at, '+I');
      } else {
        const old = alive[pick];
        push(old.row, old.ts, p < 0.85 ? '-U' : '-D');
        retractions++;
        if (p < 0.85) {
          const row = { ...old.row, v: Math.floor(rnd() * 10) };
          alive[pick] = { row, ts: at };
          push(row, at, '+U');
        } else {
          alive.splice(pick, 1);
        }
      }
    }
    for (const t of ts) maxTs = Math.max(maxTs, t);
    events.push({ kind: 'batch', rows, ts, kinds });
    events.push({ kind: 'watermark', watermark: maxTs - o.delay - 1 });
  }
  events.push({ kind: 'watermark', watermark: Number.MAX_SAFE_INTEGER });
  return { events, retractions };
}

/** Window ends of an event time: tumbling when slide = size. */
function endsOf(t: number, size: number, slide: number): number[] {
  const ends: number[] = [];
  for (let end = Math.floor(t / slide) * slide + slide; end - size <= t; end += slide) ends.push(end);
  return ends;
}

/**
 * Flink's window aggregation over a changelog with allowedLateness 0: a change counts in a window
 * only if it arrives before the window fired (end - 1 > watermark); a window fires once, and not
 * at all when no row is left in it.
 */
export function referenceChangelogWindows(events: ChangelogEvent[], size: number, slide: number) {
  const windows = new Map<string, { end: number; user: string; rows: Map<string, { v: number; n: number }> }>();
  const out: Row[] = [];
  let late = 0;
  let empty = 0;
  let watermark = -Infinity;
  for (const e of events) {
    if (e.kind === 'watermark') {
      if (e.watermark <= watermark) continue;
      watermark = e.watermark;
      const due = [...windows.entries()].filter(([, w]) => w.end - 1 <= watermark);
      due.sort(([, a], [, b]) => a.end - b.end || (a.user < b.user ? -1 : 1));
      for (const [id, w] of due) {
        windows.delete(id);
        const vs = [...w.rows.values()].flatMap((r) => Array.from({ length: r.n }, () => r.v));
        if (vs.length === 0) {
          empty++;
          continue;
        }
        out.push({ window_start: iso(w.end - size), window_end: iso(w.end), user: w.user, ...results(vs) });
      }
      continue;
    }
    e.rows.forEach((row, i) => {
      const sign = e.kinds[i] === '-U' || e.kinds[i] === '-D' ? -1 : 1;
      let placed = false;
      for (const end of endsOf(e.ts[i], size, slide)) {
        if (end - 1 <= watermark) continue;
        placed = true;
        const user = row.user as string;
        const id = `${end}/${user}`;
        const w = windows.get(id) ?? { end, user, rows: new Map() };
        windows.set(id, w);
        const key = JSON.stringify(row);
        const r = w.rows.get(key) ?? { v: row.v as number, n: 0 };
        r.n += sign;
        if (r.n === 0) w.rows.delete(key);
        else w.rows.set(key, r);
      }
      if (!placed) late++;
    });
  }
  return { out, late, empty };
}
