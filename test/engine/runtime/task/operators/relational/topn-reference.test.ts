/**
 * The topn operator against an independent reference: record by record, each partition's top N is
 * recomputed from scratch (a stable sort of all its rows so far, arrival order breaking ties), and
 * every rank whose row changed emits -U (old row) +U (new row), or +I for a rank newly filled.
 * Compared per partition on randomized out-of-order input at parallelism 1 and 4 and across
 * snapshot/restore with rescaling 1 -> 4 -> 1, on every backend; includes deduplication (limit 1
 * ordered by ts ASC = keep first, DESC = keep last).
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import type { JobNodeOf } from '../../../../../../engine/graph/types.ts';
import type { Row } from '../../../../../../engine/contracts/operator.ts';
import { createTopNOperator, TOPN_TABLE } from '../../../../../../engine/runtime/task/operators/relational/index.ts';
import { parseKeyBy } from '../../../../../../engine/sql/index.ts';
import { BACKEND_KINDS, createHarnessBackends } from '../../../../../support/harness/index.ts';
import { drivePhased, foldChangelog, perKey, PHASES, randomSides, recordsOf, type Change, type DriveEvent } from './relational-fixtures.ts';

interface SortKey { col: string; desc: boolean }

function reference(events: DriveEvent[], partitionCols: string[], order: SortKey[], limit: number): Change[] {
  const seen = new Map<string, Row[]>();
  const top = new Map<string, Row[]>();
  const out: Change[] = [];
  const cmp = (a: Row, b: Row): number => {
    for (const o of order) {
      const x = a[o.col] as number, y = b[o.col] as number;
      if (x !== y) return (x < y ? -1 : 1) * (o.desc ? -1 : 1);
    }
    return 0;
  };
  for (const { row, ts } of recordsOf(events, 0)) {
    const k = JSON.stringify(partitionCols.map((c) => row[c]));
    const all = seen.get(k) ?? [];
    all.push(row);
    seen.set(k, all);
    const now = [...all].sort(cmp).slice(0, limit); // Array.prototype.sort is stable
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
  { name: 'top 5 by v ASC, ts DESC (2 partition columns)', partitionBy: 'region, user', orderBy: 'v ASC, ts DESC', order: [{ col: 'v', desc: false }, { col: 'ts', desc: true }], limit: 5 },
  { name: 'dedup keep first (limit 1, ts ASC)', partitionBy: 'user', orderBy: 'ts ASC', order: [{ col: 'ts', desc: false }], limit: 1 },
  { name: 'dedup keep last (limit 1, ts DESC)', partitionBy: 'user', orderBy: 'ts DESC', order: [{ col: 'ts', desc: true }], limit: 1 },
];

const backends = await createHarnessBackends();
after(() => backends.dispose());

for (const [i, c] of CASES.entries()) {
  const node: JobNodeOf<'topn'> = { id: 'top', type: 'topn', config: { partitionBy: c.partitionBy, orderBy: c.orderBy, limit: c.limit } };
  const cols = parseKeyBy(c.partitionBy).columns;
  const events = randomSides(70 + i, 2500, [{ keys: 11, step: 4, jitter: 150, delay: 60, tag: 't' }]);
  const want = reference(events, cols, c.order, c.limit);
  const part = (r: Row) => JSON.stringify(cols.map((x) => r[x]));
  for (const kind of BACKEND_KINDS) {
    for (const ph of PHASES) {
      test(`topn ${c.name} vs reference: ${kind}, ${ph.name}`, async () => {
        assert.ok(want.filter((x) => x.kind === '-U').length > (c.limit === 1 ? 5 : 50), `ranks change (${want.filter((x) => x.kind === '-U').length} updates)`);
        const got = await drivePhased(events, {
          create: () => createTopNOperator(node), backend: backends.factory(kind, `topn-${kind}`),
          keyOf: [parseKeyBy(c.partitionBy).keyOf], phases: ph.phases, table: TOPN_TABLE,
        });
        assert.deepEqual(perKey(got.changes, part), perKey(want, part));
        const table = foldChangelog(got.changes);
        assert.deepEqual(table, foldChangelog(want));
        // The folded table is the top N: at most `limit` rows per partition, ranks 1..n.
        const perPart = new Map<string, number>();
        for (const t of table) { const r = Object.fromEntries(JSON.parse(t)); perPart.set(part(r), (perPart.get(part(r)) ?? 0) + 1); }
        for (const n of perPart.values()) assert.ok(n <= c.limit);
      });
    }
  }
}
