/**
 * The topn operator against an independent reference: record by record, each partition's top N is
 * recomputed from scratch (a stable sort of all its rows so far, arrival order breaking ties, except
 * in a keep-last deduplication where the latest of equal rows wins, as Flink's), and
 * every rank whose row changed emits -U (old row) +U (new row), or +I for a rank newly filled.
 * Compared per partition on randomized out-of-order input at parallelism 1 and 4 and across
 * snapshot/restore with rescaling 1 -> 4 -> 1, on every backend; includes deduplication (limit 1
 * ordered by ts ASC = keep first, DESC = keep last), and the window Top-N (final rows per window),
 * also per session window (`referenceSessions`, with a guard that records bridge and merge sessions).
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import type { JobNodeOf } from '../../../../../../engine/graph/types.ts';
import type { Row } from '../../../../../../engine/contracts/operator.ts';
import {
  createTopNOperator,
  TOPN_TABLE,
  WINDOW_TOPN_TABLE,
} from '../../../../../../engine/runtime/task/operators/relational/index.ts';
import { iso } from '../window/window-fixtures.ts';
import { parseKeyBy } from '../../../../../../engine/sql/index.ts';
import { BACKEND_KINDS, createHarnessBackends } from '../../../../../support/harness/index.ts';
import {
  canonicalRow,
  drivePhased,
  foldChangelog,
  perKey,
  PHASES,
  randomSides,
  recordsOf,
  referenceSessions,
  type Change,
  type DriveEvent,
} from './relational-fixtures.ts';

interface SortKey {
  col: string;
  desc: boolean;
}

function reference(events: DriveEvent[], partitionCols: string[], order: SortKey[], limit: number): Change[] {
  const seen = new Map<string, Row[]>();
  const top = new Map<string, Row[]>();
  const out: Change[] = [];
  const cmp = (a: Row, b: Row): number => {
    for (const o of order) {
      const x = a[o.col] as number,
        y = b[o.col] as number;
      if (x !== y) return (x < y ? -1 : 1) * (o.desc ? -1 : 1);
    }
    return 0;
  };
  // Flink's rowtime deduplication keeping the last row: an equal row replaces the held one.
  const lastWins = limit === 1 && order.length === 1 && order[0].desc;
  for (const { row, ts } of recordsOf(events, 0)) {
    const k = JSON.stringify(partitionCols.map((c) => row[c]));
    const all = seen.get(k) ?? [];
    all.push(row);
    seen.set(k, all);
    const arrival = lastWins ? [...all].reverse() : [...all];
    const now = arrival.sort(cmp).slice(0, limit); // Array.prototype.sort is stable
    const before = top.get(k) ?? [];
    for (let r = 0; r < now.length; r++) {
      if (before[r] === now[r]) continue;
      if (before[r] !== undefined) out.push({ kind: '-U', row: { ...before[r], rownum: r + 1 }, ts });
      out.push({ kind: before[r] !== undefined ? '+U' : '+I', row: { ...now[r], rownum: r + 1 }, ts });
    }
    top.set(k, now);
  }
  return out;
}

const CASES: Array<{ name: string; partitionBy: string; orderBy: string; order: SortKey[]; limit: number }> = [
  { name: 'top 3 by v DESC', partitionBy: 'user', orderBy: 'v DESC', order: [{ col: 'v', desc: true }], limit: 3 },
  {
    name: 'top 5 by v ASC, ts DESC (2 partition columns)',
    partitionBy: 'region, user',
    orderBy: 'v ASC, ts DESC',
    order: [
      { col: 'v', desc: false },
      { col: 'ts', desc: true },
    ],
    limit: 5,
  },
  {
    name: 'dedup keep first (limit 1, ts ASC)',
    partitionBy: 'user',
    orderBy: 'ts ASC',
    order: [{ col: 'ts', desc: false }],
    limit: 1,
  },
  {
    name: 'dedup keep last (limit 1, ts DESC)',
    partitionBy: 'user',
    orderBy: 'ts DESC',
    order: [{ col: 'ts', desc: true }],
    limit: 1,
  },
];

/** Rows whose partition already had a row with the same `col` value: the ties a tie rule decides. */
function tiesIn(events: DriveEvent[], partitionCols: string[], col: string): number {
  const seen = new Set<string>();
  let ties = 0;
  for (const { row } of recordsOf(events, 0)) {
    const k = JSON.stringify([...partitionCols.map((c) => row[c]), row[col]]);
    if (seen.has(k)) ties++;
    seen.add(k);
  }
  return ties;
}

const backends = await createHarnessBackends();
after(() => backends.dispose());

for (const [i, c] of CASES.entries()) {
  const node: JobNodeOf<'topn'> = {
    id: 'top',
    type: 'topn',
    config: { partitionBy: c.partitionBy, orderBy: c.orderBy, limit: c.limit },
  };
  const cols = parseKeyBy(c.partitionBy).columns;
  const events = randomSides(70 + i, 2500, [{ keys: 11, step: 4, jitter: 150, delay: 60, tag: 't' }]);
  const want = reference(events, cols, c.order, c.limit);
  const part = (r: Row) => JSON.stringify(cols.map((x) => r[x]));
  for (const kind of BACKEND_KINDS) {
    for (const ph of PHASES) {
      test(`topn ${c.name} vs reference: ${kind}, ${ph.name}`, async () => {
        assert.ok(
          want.filter((x) => x.kind === '-U').length > (c.limit === 1 ? 5 : 50),
          `ranks change (${want.filter((x) => x.kind === '-U').length} updates)`,
        );
        if (c.limit === 1) assert.ok(tiesIn(events, cols, c.order[0].col) > 5, 'rows tie on the order key');
        const got = await drivePhased(events, {
          create: () => createTopNOperator(node),
          backend: backends.factory(kind, `topn-${kind}`),
          keyOf: [parseKeyBy(c.partitionBy).keyOf],
          phases: ph.phases,
          table: TOPN_TABLE,
        });
        assert.deepEqual(perKey(got.changes, part), perKey(want, part));
        const table = foldChangelog(got.changes);
        assert.deepEqual(table, foldChangelog(want));
        // The folded table is the top N: at most `limit` rows per partition, ranks 1..n.
        const perPart = new Map<string, number>();
        for (const t of table) {
          const r = Object.fromEntries(JSON.parse(t));
          perPart.set(part(r), (perPart.get(part(r)) ?? 0) + 1);
        }
        for (const n of perPart.values()) assert.ok(n <= c.limit);
      });
    }
  }
}

// Window Top-N: per window and partition, the first `limit` on-time rows in order (stable sort of
// arrival order), emitted once when the window closes, with window bounds and rownum.
function windowTopNReference(
  events: DriveEvent[],
  size: number,
  slide: number,
  order: SortKey[],
  limit: number,
): string[] {
  const buckets = new Map<string, { end: number; rows: Row[] }>();
  for (const e of events) {
    if (e.kind !== 'batch') continue;
    e.rows.forEach((row, i) => {
      const t = e.ts[i];
      for (let start = Math.floor(t / slide) * slide; start > t - size; start -= slide) {
        if (start + size - 1 <= e.sourceWatermarks[i]) continue; // this window was already closed for it
        const k = `${start + size}|${row.user}`;
        const b = buckets.get(k) ?? { end: start + size, rows: [] };
        b.rows.push(row);
        buckets.set(k, b);
      }
    });
  }
  const cmp = (a: Row, b: Row): number => {
    for (const o of order) {
      const x = a[o.col] as number,
        y = b[o.col] as number;
      if (x !== y) return (x < y ? -1 : 1) * (o.desc ? -1 : 1);
    }
    return 0;
  };
  const out: string[] = [];
  for (const b of buckets.values()) {
    [...b.rows]
      .sort(cmp)
      .slice(0, limit)
      .forEach((row, r) =>
        out.push(
          `${canonicalRow({ window_start: iso(b.end - size), window_end: iso(b.end), ...row, rownum: r + 1 })} @${b.end - 1}`,
        ),
      );
  }
  return out.sort();
}

for (const spec of [
  { kind: 'tumbling' as const, size: 300, slide: 300 },
  { kind: 'sliding' as const, size: 400, slide: 200 },
]) {
  const window =
    spec.kind === 'tumbling'
      ? { kind: spec.kind, size: spec.size }
      : { kind: spec.kind, size: spec.size, slide: spec.slide };
  const node: JobNodeOf<'topn'> = {
    id: 'wtop',
    type: 'topn',
    config: { partitionBy: 'user', orderBy: 'v DESC', limit: 2, window },
  };
  const events = randomSides(160, 2500, [{ keys: 7, step: 4, jitter: 150, delay: 60, tag: 'w' }]);
  const want = windowTopNReference(events, spec.size, spec.slide, [{ col: 'v', desc: true }], 2);
  for (const kind of BACKEND_KINDS) {
    for (const ph of PHASES) {
      test(`topn per ${spec.kind} window vs reference: ${kind}, ${ph.name}`, async () => {
        assert.ok(want.length > 200, `windows fire (${want.length} rows)`);
        const got = await drivePhased(events, {
          create: () => createTopNOperator(node),
          backend: backends.factory(kind, `wtop-${kind}`),
          keyOf: [parseKeyBy('user').keyOf],
          phases: ph.phases,
          table: WINDOW_TOPN_TABLE,
        });
        assert.ok(
          got.changes.every((c) => c.kind === '+I'),
          'a window Top-N is append-only',
        );
        assert.ok(got.late > 10, `late records were dropped (${got.late})`);
        assert.deepEqual(got.changes.map((c) => `${canonicalRow(c.row)} @${c.ts}`).sort(), want);
        assert.equal(got.finalEntries, 0, 'every window fired and was dropped');
      });
    }
  }
}

// Session window Top-N: sessions per partition (referenceSessions); each fired session's rows in a
// stable sort of arrival order. Ordering by region (one value per user) makes every row a tie, so
// the top 2 are the session's first two arrivals: merged sessions must keep arrival order.
const SESSION_GAP = 100;
const sessionEvents = randomSides(180, 2500, [{ keys: 25, step: 6, jitter: 150, delay: 100, tag: 's' }]);
const sessionRef = referenceSessions(sessionEvents, SESSION_GAP, [parseKeyBy('user').keyOf]);
for (const c of [
  { orderBy: 'v DESC', order: [{ col: 'v', desc: true }], limit: 2 },
  { orderBy: 'region ASC', order: [{ col: 'region', desc: false }], limit: 2 },
]) {
  const node: JobNodeOf<'topn'> = {
    id: 'stop',
    type: 'topn',
    config: { partitionBy: 'user', orderBy: c.orderBy, limit: c.limit, window: { kind: 'session', gap: SESSION_GAP } },
  };
  const cmp = (a: Row, b: Row): number => {
    for (const o of c.order) {
      const x = a[o.col] as number,
        y = b[o.col] as number;
      if (x !== y) return (x < y ? -1 : 1) * (o.desc ? -1 : 1);
    }
    return 0;
  };
  const want = sessionRef.fired
    .flatMap((s) =>
      s.records
        .map((x) => x.row)
        .sort(cmp)
        .slice(0, c.limit)
        .map(
          (row, r) =>
            `${canonicalRow({ window_start: iso(s.start), window_end: iso(s.end), ...row, rownum: r + 1 })} @${s.end - 1}`,
        ),
    )
    .sort();
  for (const kind of BACKEND_KINDS) {
    for (const ph of PHASES) {
      test(`topn per session window, ${c.orderBy}, vs reference: ${kind}, ${ph.name}`, async () => {
        assert.ok(want.length > 1000, `sessions fire (${want.length} rows)`);
        assert.ok(sessionRef.bridges > 30, `records bridge and merge sessions (${sessionRef.bridges})`);
        assert.ok(
          sessionRef.fired.filter((s) => s.records.length > c.limit).length > 100,
          'sessions hold more rows than the limit',
        );
        const got = await drivePhased(sessionEvents, {
          create: () => createTopNOperator(node),
          backend: backends.factory(kind, `stop-${kind}`),
          keyOf: [parseKeyBy('user').keyOf],
          phases: ph.phases,
          table: WINDOW_TOPN_TABLE,
        });
        assert.ok(
          got.changes.every((x) => x.kind === '+I'),
          'a window Top-N is append-only',
        );
        assert.equal(got.late, sessionRef.late, 'late records dropped as the reference drops them');
        assert.ok(got.late > 10, `late records were dropped (${got.late})`);
        assert.deepEqual(got.changes.map((x) => `${canonicalRow(x.row)} @${x.ts}`).sort(), want);
        assert.equal(got.finalEntries, 0, 'every session fired and was dropped');
      });
    }
  }
}
