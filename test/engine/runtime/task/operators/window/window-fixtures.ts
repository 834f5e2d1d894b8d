/**
 * Shared by the window operator tests: a job around one window node, a seeded input generator and
 * an independent reference implementation of Flink's window semantics. The reference buffers raw
 * rows per window and computes results from them at firing time (deliberately nothing like the
 * operator's incremental accumulators and timer index), one record at a time.
 */
import {
  DEFAULT_SETTINGS,
  type JobNodeOf,
  type NormalizedJob,
  type WindowConfig,
} from '../../../../../../engine/graph/types.ts';
import type { Row } from '../../../../../../engine/contracts/operator.ts';
import { createWindowOperator } from '../../../../../../engine/runtime/task/operators/window/index.ts';
import type { StreamOperator } from '../../../../../../engine/contracts/operator.ts';
import type { TimestampedRow } from '../../../../../support/harness/index.ts';

export const T0 = Date.UTC(2024, 0, 1);

export function windowJob(
  config: WindowConfig,
  opts: { lateWired?: boolean; parallelism?: number } = {},
): {
  node: JobNodeOf<'window'>;
  job: NormalizedJob;
  create: () => StreamOperator;
} {
  const node: JobNodeOf<'window'> & { parallelism: number } = {
    id: 'win',
    type: 'window',
    parallelism: opts.parallelism ?? 1,
    config,
  };
  const job: NormalizedJob = {
    format: 'weir.job/v1',
    name: 'window-test',
    settings: DEFAULT_SETTINGS,
    nodes: [
      { id: 'src', type: 'source.generator', parallelism: 1, config: {} },
      node,
      { id: 'sink', type: 'sink.preview', parallelism: 1, config: {} },
      { id: 'lateSink', type: 'sink.preview', parallelism: 1, config: {} },
    ],
    edges: [
      { from: 'src', to: 'win', fromPort: 'out' },
      { from: 'win', to: 'sink', fromPort: 'out' },
      ...(opts.lateWired ? [{ from: 'win', to: 'lateSink', fromPort: 'late' as const }] : []),
    ],
  };
  return { node, job, create: () => createWindowOperator(node, job) };
}

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** mulberry32: a tiny seeded PRNG, so every run of a test sees the same input. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type InputEvent = { kind: 'batch'; rows: Row[]; ts: number[] } | { kind: 'watermark'; watermark: number };

/**
 * Out-of-order keyed input: `count` records over `keys` keys, event times step `step` apart with
 * jitter up to `jitter` ms either way, in batches of 1..maxBatch records, each followed by a
 * bounded-out-of-orderness watermark (`maxTs - delay - 1`, as the sources emit it). With `delay`
 * below `jitter` some records arrive after the watermark passed them: late data. Every 40th batch
 * has a stretch without watermarks (an idle input: the watermark simply does not move). About 3% of
 * records are stragglers, up to `straggle` ms (default 2000) older than their neighbours.
 */
export function randomInput(o: {
  seed: number;
  count: number;
  keys: number;
  step: number;
  jitter: number;
  delay: number;
  maxBatch: number;
  straggle?: number;
}): InputEvent[] {
  const rnd = prng(o.seed);
  const events: InputEvent[] = [];
  let maxTs = -Infinity;
  let i = 0;
  let batchNo = 0;
  while (i < o.count) {
    const size = 1 + Math.floor(rnd() * o.maxBatch);
    const rows: Row[] = [];
    const ts: number[] = [];
    for (let j = 0; j < size && i < o.count; j++, i++) {
      let t = T0 + i * o.step + Math.round((rnd() * 2 - 1) * o.jitter);
      if (rnd() < 0.03) t -= Math.round(rnd() * (o.straggle ?? 2000));
      const k = Math.floor(rnd() * o.keys);
      rows.push({ user: `u${k}`, region: k % 3 === 0 ? 'eu' : 'us', v: Math.floor(rnd() * 100) - 20 });
      ts.push(t);
      if (t > maxTs) maxTs = t;
    }
    events.push({ kind: 'batch', rows, ts });
    batchNo++;
    if (batchNo % 40 < 37) events.push({ kind: 'watermark', watermark: maxTs - o.delay - 1 });
  }
  events.push({ kind: 'watermark', watermark: Infinity });
  return events;
}

export type RefSpec =
  | { kind: 'tumbling'; size: number }
  | { kind: 'sliding'; size: number; slide: number }
  | { kind: 'session'; gap: number };

interface RefWindow {
  key: string;
  keyValues: unknown[];
  start: number;
  end: number;
  rows: Row[];
}

export interface ReferenceResult {
  out: TimestampedRow[];
  late: TimestampedRow[];
}

/**
 * Flink's WindowOperator + EventTimeTrigger, record at a time, aggregates `COUNT(*) AS n,
 * SUM(v) AS total, MIN(v) AS lo, MAX(v) AS hi, AVG(v) AS mean` computed from buffered rows.
 */
export function referenceWindows(
  events: InputEvent[],
  spec: RefSpec,
  keyCols: string[],
  lateness: number,
): ReferenceResult {
  const windows = new Map<string, RefWindow[]>();
  const out: TimestampedRow[] = [];
  const late: TimestampedRow[] = [];
  let wm = -Infinity;
  const result = (w: RefWindow): TimestampedRow => {
    const row: Row = { window_start: iso(w.start), window_end: iso(w.end) };
    keyCols.forEach((c, i) => {
      row[c] = w.keyValues[i];
    });
    const vs = w.rows.map((r) => r.v as number);
    row.n = vs.length;
    row.total = vs.reduce((a, b) => a + b, 0);
    row.lo = Math.min(...vs);
    row.hi = Math.max(...vs);
    // Flink's AVG of integers is an integer, truncated toward zero (LogicalTypeMerging.findAvgAggType).
    const mean = (row.total as number) / vs.length;
    row.mean = vs.every((v) => Number.isInteger(v)) ? Math.trunc(mean) || 0 : mean;
    return { row, ts: w.end - 1 };
  };
  const isLate = (end: number): boolean => end - 1 + lateness <= wm;

  for (const ev of events) {
    if (ev.kind === 'watermark') {
      if (!(ev.watermark > wm)) continue;
      const prev = wm;
      wm = ev.watermark;
      const due: RefWindow[] = [];
      for (const list of windows.values()) for (const w of list) if (w.end - 1 > prev && w.end - 1 <= wm) due.push(w);
      due.sort((a, b) => a.end - b.end || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
      for (const w of due) out.push(result(w));
      for (const [k, list] of windows) {
        const keep = list.filter((w) => !isLate(w.end));
        if (keep.length) windows.set(k, keep);
        else windows.delete(k);
      }
      continue;
    }
    for (let i = 0; i < ev.rows.length; i++) {
      const row = ev.rows[i];
      const ts = ev.ts[i];
      const keyValues = keyCols.map((c) => row[c]);
      const key = JSON.stringify(keyValues);
      const list = windows.get(key) ?? [];
      windows.set(key, list);
      if (spec.kind === 'session') {
        let start = ts;
        let end = ts + spec.gap;
        const touching = list.filter((w) => w.start <= end && w.end >= start);
        if (touching.length === 0 && isLate(end)) {
          late.push({ row, ts });
          continue;
        }
        const rows: Row[] = [];
        for (const w of touching) {
          start = Math.min(start, w.start);
          end = Math.max(end, w.end);
          rows.push(...w.rows);
          list.splice(list.indexOf(w), 1);
        }
        rows.push(row);
        const merged: RefWindow = { key, keyValues, start, end, rows };
        list.push(merged);
        if (end - 1 <= wm) out.push(result(merged));
      } else {
        const size = spec.size;
        const slide = spec.kind === 'sliding' ? spec.slide : spec.size;
        let placed = false;
        // Every window [s, s + size) with s a multiple of slide that contains ts.
        for (let s = Math.floor(ts / slide) * slide; s > ts - size; s -= slide) {
          const end = s + size;
          if (isLate(end)) continue;
          placed = true;
          let w = list.find((x) => x.end === end);
          if (!w) {
            w = { key, keyValues, start: s, end, rows: [] };
            list.push(w);
          }
          w.rows.push(row);
          if (end - 1 <= wm) out.push(result(w));
        }
        if (!placed) late.push({ row, ts });
      }
    }
  }
  return { out, late };
}

/** Order-insensitive comparison form of an output. */
export function canonical(rows: readonly TimestampedRow[]): string[] {
  return rows.map((r) => JSON.stringify([r.ts, r.row])).sort();
}

export const AGGREGATES = 'COUNT(*) AS n, SUM(v) AS total, MIN(v) AS lo, MAX(v) AS hi, AVG(v) AS mean';

/** Feeds input events to a harness (single subtask or parallel): batches and watermarks in order. */
export async function drive(
  h: { processBatch(b: { rows: Row[]; ts: number[] }): Promise<void>; processWatermark(w: number): Promise<void> },
  events: readonly InputEvent[],
): Promise<void> {
  for (const ev of events) {
    if (ev.kind === 'batch') await h.processBatch({ rows: ev.rows, ts: ev.ts });
    else await h.processWatermark(ev.watermark);
  }
}

/** `{ row, ts }` for a row at `T0 + offset` ms. */
export function at(offset: number, row: Row): TimestampedRow {
  return { row, ts: T0 + offset };
}
