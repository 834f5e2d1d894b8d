/**
 * Shared by the relational operator tests (aggregate, topn, join.interval): seeded out-of-order
 * input on one or two inputs, an independent changelog fold, and a driver that runs the input
 * through N subtasks on a real state backend, optionally snapshotting and restoring into other
 * parallelisms on the way (rescale 1 -> 4 -> 1), as the runtime would after a failure.
 */
import assert from 'node:assert/strict';
import type { Row, RowKind, StreamOperator } from '../../../../../../engine/contracts/operator.ts';
import type { StateBackendKind } from '../../../../../../engine/graph/types.ts';
import {
  MultiInputParallelHarness,
  type BackendFactory,
  type HarnessSnapshot,
} from '../../../../../support/harness/index.ts';
import { prng, T0 } from '../window/window-fixtures.ts';

export type Change = { kind: RowKind; row: Row; ts: number };

export type DriveEvent =
  | { kind: 'batch'; input: number; rows: Row[]; ts: number[]; sourceWatermarks: number[] }
  | { kind: 'watermark'; watermark: number };

export interface SideOptions {
  keys: number;
  step: number;
  jitter: number;
  delay: number;
  tag: string;
}

/**
 * `count` records spread over `sides.length` inputs in random batches. Each input is its own
 * source with a bounded-out-of-orderness watermark (`maxTs - delay - 1`), carried per record in
 * `sourceWatermarks` as the runtime's sources do; after each batch the operator watermark is the
 * minimum over the inputs (the watermark valve). With jitter above delay some records are late.
 * Rows: `{ id, user, region, v, ts }` with a unique `id` (`<tag><n>`).
 */
export function randomSides(seed: number, count: number, sides: SideOptions[], maxBatch = 40): DriveEvent[] {
  const rnd = prng(seed);
  const next = sides.map(() => 0);
  const maxTs = sides.map(() => -Infinity);
  const wms = sides.map(() => -Infinity);
  const events: DriveEvent[] = [];
  let emitted = 0;
  let opWm = -Infinity;
  while (emitted < count) {
    const input = Math.floor(rnd() * sides.length);
    const o = sides[input];
    const size = 1 + Math.floor(rnd() * maxBatch);
    const rows: Row[] = [];
    const ts: number[] = [];
    const sw: number[] = [];
    for (let j = 0; j < size && emitted < count; j++, emitted++) {
      const i = next[input]++;
      let t = T0 + i * o.step + Math.round((rnd() * 2 - 1) * o.jitter);
      if (rnd() < 0.03) t -= Math.round(rnd() * 1000);
      const k = Math.floor(rnd() * o.keys);
      sw.push(maxTs[input] === -Infinity ? -Infinity : maxTs[input] - o.delay - 1);
      rows.push({
        id: `${o.tag}${i}`,
        user: `u${k}`,
        region: k % 3 === 0 ? 'eu' : 'us',
        v: Math.floor(rnd() * 100) - 20,
        ts: t,
      });
      ts.push(t);
      if (t > maxTs[input]) maxTs[input] = t;
    }
    events.push({ kind: 'batch', input, rows, ts, sourceWatermarks: sw });
    wms[input] = maxTs[input] - o.delay - 1;
    const w = Math.min(...wms);
    if (w > opWm) {
      opWm = w;
      events.push({ kind: 'watermark', watermark: w });
    }
  }
  events.push({ kind: 'watermark', watermark: Infinity });
  return events;
}

/** Records on time by their own source's watermark (what the operators must not drop). */
export function onTime(events: DriveEvent[], input: number): Array<{ row: Row; ts: number }> {
  const out: Array<{ row: Row; ts: number }> = [];
  for (const e of events) {
    if (e.kind !== 'batch' || e.input !== input) continue;
    e.rows.forEach((row, i) => {
      if (e.ts[i] > e.sourceWatermarks[i]) out.push({ row, ts: e.ts[i] });
    });
  }
  return out;
}

/** All records of one input in arrival order. */
export function recordsOf(events: DriveEvent[], input: number): Array<{ row: Row; ts: number }> {
  return events.flatMap((e) =>
    e.kind === 'batch' && e.input === input ? e.rows.map((row, i) => ({ row, ts: e.ts[i] })) : [],
  );
}

/**
 * Folds a changelog into its table (a multiset of rows): +I/+U add, -U/-D remove one equal row.
 * A retraction of a row that is not in the table is a bug in the producer: it throws.
 */
export function foldChangelog(changes: readonly Change[]): string[] {
  const table = new Map<string, number>();
  for (const c of changes) {
    const k = canonicalRow(c.row);
    const n = table.get(k) ?? 0;
    if (c.kind === '+I' || c.kind === '+U') table.set(k, n + 1);
    else {
      assert.ok(n > 0, `${c.kind} retracts a row that is not in the table: ${k}`);
      if (n === 1) table.delete(k);
      else table.set(k, n - 1);
    }
  }
  return [...table.entries()].flatMap(([k, n]) => Array.from({ length: n }, () => k)).sort();
}

/** JSON with sorted keys: rows compare by content, not by column order. */
export function canonicalRow(row: Row): string {
  return JSON.stringify(
    Object.keys(row)
      .sort()
      .map((k) => [k, row[k]]),
  );
}

/** Changes grouped by a key of their row, each group in emission order (canonical rows). */
export function perKey(changes: readonly Change[], keyOf: (row: Row) => string): Map<string, string[]> {
  const m = new Map<string, string[]>();
  for (const c of changes) {
    const k = keyOf(c.row);
    const list = m.get(k) ?? [];
    list.push(`${c.kind} ${canonicalRow(c.row)}`);
    m.set(k, list);
  }
  return new Map([...m.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

export interface DriveOptions {
  create: () => StreamOperator;
  backend: BackendFactory;
  keyOf: ReadonlyArray<(row: Row) => string>;
  /** Parallelism of each phase; between phases all subtasks snapshot and the next restores. */
  phases: number[];
  /** The operator's keyed-state table (counted after the final watermark). */
  table: string;
}

export interface DriveResult {
  changes: Change[];
  late: number;
  /** Keyed-state entries left per table after the final watermark. */
  finalEntries: number;
  snapshots: number;
}

/** Runs `events` through the phases; each phase gets an equal share of the events. */
export async function drivePhased(events: DriveEvent[], o: DriveOptions): Promise<DriveResult> {
  const changes: Change[] = [];
  let late = 0;
  let restore: HarnessSnapshot[] | undefined;
  let snapshots = 0;
  let finalEntries = 0;
  const per = Math.ceil(events.length / o.phases.length);
  for (let p = 0; p < o.phases.length; p++) {
    const h = await MultiInputParallelHarness.open(
      o.create,
      { parallelism: o.phases[p], keyOf: o.keyOf, backend: o.backend },
      restore,
    );
    for (const e of events.slice(p * per, (p + 1) * per)) {
      if (e.kind === 'watermark') await h.processWatermark(e.watermark);
      else await h.processBatch({ rows: e.rows, ts: e.ts, sourceWatermarks: e.sourceWatermarks }, e.input);
    }
    if (p + 1 < o.phases.length) {
      restore = await h.snapshot(100 + p);
      snapshots++;
    } else {
      await h.endInput();
      for (const s of h.subtasks) for await (const _ of s.backend.table(o.table).scan()) finalEntries++;
    }
    changes.push(...h.changelog());
    late += h.lateRecordsDropped();
    await h.close();
  }
  return { changes, late, finalEntries, snapshots };
}

export const PHASES: Array<{ name: string; phases: number[] }> = [
  { name: 'parallelism 1', phases: [1] },
  { name: 'parallelism 4', phases: [4] },
  { name: 'snapshot/restore 1 -> 4 -> 1', phases: [1, 4, 1] },
];

export type { StateBackendKind };

export interface RefSession {
  key: string;
  start: number;
  end: number;
  /** Records of every input in arrival order. */
  records: Array<{ input: number; row: Row }>;
}

export interface RefSessionResult {
  fired: RefSession[];
  late: number;
  /** Records that merged two or more existing sessions into one (a bridge). */
  bridges: number;
  /** Records that extended an existing session. */
  joined: number;
}

/**
 * Flink's session windows over the union of the inputs keyed by `keyOf[input]`, record at a time
 * (a plain loop, independent of the operators' state layout): a record opens `[ts, ts + gap)` and
 * absorbs every session of its key it touches (inclusive bounds); a session fires and is dropped
 * when the operator watermark reaches end - 1. A record touching no session whose own session ends
 * at or below max(operator watermark, its source watermark) is late.
 */
export function referenceSessions(
  events: DriveEvent[],
  gap: number,
  keyOf: ReadonlyArray<(row: Row) => string>,
): RefSessionResult {
  const open = new Map<string, RefSession[]>();
  const arrival = new Map<{ input: number; row: Row }, number>();
  const fired: RefSession[] = [];
  let wm = -Infinity;
  let late = 0,
    bridges = 0,
    joined = 0;
  for (const e of events) {
    if (e.kind === 'watermark') {
      if (!(e.watermark > wm)) continue;
      wm = e.watermark;
      for (const [k, list] of open) {
        fired.push(...list.filter((s) => s.end - 1 <= wm));
        const keep = list.filter((s) => s.end - 1 > wm);
        if (keep.length > 0) open.set(k, keep);
        else open.delete(k);
      }
      continue;
    }
    e.rows.forEach((row, i) => {
      const key = keyOf[e.input](row);
      const list = open.get(key) ?? [];
      const t = e.ts[i];
      const touching = list.filter((s) => s.start <= t + gap && s.end >= t);
      if (touching.length === 0 && t + gap - 1 <= Math.max(wm, e.sourceWatermarks[i])) {
        late++;
        return;
      }
      if (touching.length > 1) bridges++;
      if (touching.length > 0) joined++;
      const merged: RefSession = {
        key,
        start: Math.min(t, ...touching.map((s) => s.start)),
        end: Math.max(t + gap, ...touching.map((s) => s.end)),
        records: touching.flatMap((s) => s.records),
      };
      // Arrival order across the absorbed sessions: by each record's position in the input.
      merged.records.sort((a, b) => arrival.get(a)! - arrival.get(b)!);
      const rec = { input: e.input, row };
      arrival.set(rec, arrival.size);
      merged.records.push(rec);
      open.set(key, [...list.filter((s) => !touching.includes(s)), merged]);
    });
  }
  return { fired, late, bridges, joined };
}
