/**
 * The regular join (inner, left, right, full) and the window join against independent references:
 * the SQL join of all input computed by nested loops (outer joins pad unmatched rows with NULLs),
 * and for the window join every pair of on-time records of one key per tumbling / sliding window,
 * or per session formed over both inputs (`referenceSessions`, with a guard that records bridge
 * and merge sessions).
 * The regular join's changelog is folded (it must never retract a row it did not emit); randomized
 * out-of-order input, parallelism 1 and 4, snapshot/restore with rescaling 1 -> 4 -> 1, every backend.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import type { JobNodeOf, JoinKind } from '../../../../../../engine/graph/types.ts';
import type { Row } from '../../../../../../engine/contracts/operator.ts';
import {
  createRegularJoinOperator,
  createWindowJoinOperator,
  REGULAR_JOIN_TABLE,
  WINDOW_JOIN_TABLE,
} from '../../../../../../engine/runtime/task/operators/relational/index.ts';
import { parseKeyBy } from '../../../../../../engine/sql/index.ts';
import { BACKEND_KINDS, createHarnessBackends, OperatorTestHarness } from '../../../../../support/harness/index.ts';
import { iso } from '../window/window-fixtures.ts';
import {
  canonicalRow,
  drivePhased,
  foldChangelog,
  PHASES,
  randomSides,
  recordsOf,
  referenceSessions,
  type DriveEvent,
} from './relational-fixtures.ts';

const SELECT = 'L.user AS lu, R.user AS ru, L.id AS lid, R.id AS rid, L.v - R.v AS dv';

function sqlJoin(kind: JoinKind, lefts: Row[], rights: Row[]): string[] {
  const out: string[] = [];
  const matchedR = new Set<Row>();
  const row = (l: Row | null, r: Row | null): string =>
    canonicalRow({
      lu: l?.user ?? null,
      ru: r?.user ?? null,
      lid: l?.id ?? null,
      rid: r?.id ?? null,
      dv: l && r ? (l.v as number) - (r.v as number) : null,
    });
  for (const l of lefts) {
    let matched = false;
    for (const r of rights)
      if (l.user === r.user) {
        out.push(row(l, r));
        matched = true;
        matchedR.add(r);
      }
    if (!matched && (kind === 'left' || kind === 'full')) out.push(row(l, null));
  }
  if (kind === 'right' || kind === 'full') for (const r of rights) if (!matchedR.has(r)) out.push(row(null, r));
  return out.sort();
}

const backends = await createHarnessBackends();
after(() => backends.dispose());

// Few matches per key (sparse keys on each side), so outer joins really pad and retract.
const events = randomSides(130, 1600, [
  { keys: 400, step: 4, jitter: 100, delay: 40, tag: 'l' },
  { keys: 400, step: 6, jitter: 100, delay: 40, tag: 'r' },
]);
const lefts = recordsOf(events, 0).map((x) => x.row);
const rights = recordsOf(events, 1).map((x) => x.row);
const key = parseKeyBy('user').keyOf;

for (const kind of ['inner', 'left', 'right', 'full'] as const) {
  const node: JobNodeOf<'join'> = {
    id: 'j',
    type: 'join',
    config: { kind, leftKey: 'user', rightKey: 'user', select: SELECT },
  };
  const want = sqlJoin(kind, lefts, rights);
  for (const backend of BACKEND_KINDS) {
    for (const ph of PHASES) {
      test(`join ${kind} vs reference: ${backend}, ${ph.name}`, async () => {
        assert.ok(want.length > 500, `the input joins (${want.length} rows)`);
        const got = await drivePhased(events, {
          create: () => createRegularJoinOperator(node),
          backend: backends.factory(backend, `rj-${backend}`),
          keyOf: [key, key],
          phases: ph.phases,
          table: REGULAR_JOIN_TABLE,
        });
        if (kind === 'inner')
          assert.ok(
            got.changes.every((c) => c.kind === '+I'),
            'an inner join is append-only',
          );
        else
          assert.ok(
            got.changes.filter((c) => c.kind === '-D').length > 20,
            'outer rows were padded, then retracted on a match',
          );
        assert.deepEqual(foldChangelog(got.changes), want);
      });
    }
  }
}

test('join stateTtl: rows older than stateTtl behind the watermark no longer join', async () => {
  const node: JobNodeOf<'join'> = {
    id: 'j',
    type: 'join',
    config: { kind: 'inner', leftKey: 'k', rightKey: 'k', select: 'L.id AS l, R.id AS r', stateTtl: 1000 },
  };
  for (const backend of BACKEND_KINDS) {
    const h = await OperatorTestHarness.open(() => createRegularJoinOperator(node), {
      backend: backends.factory(backend, `ttl-${backend}`),
    });
    await h.processElements([{ row: { k: 'a', id: 'L1' }, ts: 100 }], 0);
    await h.processElements([{ row: { k: 'a', id: 'R1' }, ts: 900 }], 1);
    await h.processWatermark(1100); // L1 expires (100 + 1000 <= 1100), R1 is kept until 1900
    await h.processElements([{ row: { k: 'a', id: 'L2' }, ts: 1200 }], 0);
    await h.processElements([{ row: { k: 'a', id: 'R2' }, ts: 1200 }], 1);
    assert.deepEqual(
      h.output().map((o) => `${o.row.l}-${o.row.r}`),
      ['L1-R1', 'L2-R1', 'L2-R2'],
      backend,
    );
    await h.close();
  }
});

// Window join: tumbling and sliding, lateness judged per record against its source's watermark.
function windowJoinReference(input: DriveEvent[], size: number, slide: number): string[] {
  const out: string[] = [];
  const ls = onTimeWindows(input, 0, size, slide),
    rs = onTimeWindows(input, 1, size, slide);
  for (const l of ls)
    for (const r of rs) {
      if (l.end !== r.end || l.row.user !== r.row.user) continue;
      out.push(
        `${canonicalRow({ window_start: iso(l.end - size), window_end: iso(l.end), user: l.row.user, lid: l.row.id, rid: r.row.id })} @${l.end - 1}`,
      );
    }
  return out.sort();
}

/** (record, window end) for every window of a record that was still open for it (end - 1 > its source watermark). */
function onTimeWindows(
  all: DriveEvent[],
  input: number,
  size: number,
  slide: number,
): Array<{ row: Row; end: number }> {
  const out: Array<{ row: Row; end: number }> = [];
  for (const e of all) {
    if (e.kind !== 'batch' || e.input !== input) continue;
    e.rows.forEach((row, i) => {
      const t = e.ts[i];
      for (let start = Math.floor(t / slide) * slide; start > t - size; start -= slide) {
        if (start + size - 1 > e.sourceWatermarks[i]) out.push({ row, end: start + size });
      }
    });
  }
  return out;
}

const wjEvents = randomSides(150, 2400, [
  { keys: 6, step: 4, jitter: 150, delay: 60, tag: 'l' },
  { keys: 6, step: 5, jitter: 150, delay: 60, tag: 'r' },
]);
for (const spec of [
  { kind: 'tumbling' as const, size: 200, slide: 200 },
  { kind: 'sliding' as const, size: 300, slide: 100 },
]) {
  const window =
    spec.kind === 'tumbling'
      ? { kind: spec.kind, size: spec.size }
      : { kind: spec.kind, size: spec.size, slide: spec.slide };
  const node: JobNodeOf<'join.window'> = {
    id: 'wj',
    type: 'join.window',
    config: {
      leftKey: 'user',
      rightKey: 'user',
      window,
      select: 'window_start, window_end, L.user, L.id AS lid, R.id AS rid',
    },
  };
  for (const backend of BACKEND_KINDS) {
    for (const ph of PHASES) {
      test(`join.window ${spec.kind} vs reference: ${backend}, ${ph.name}`, async () => {
        const want = windowJoinReference(wjEvents, spec.size, spec.slide);
        assert.ok(want.length > 500, `the input joins (${want.length} pairs)`);
        const got = await drivePhased(wjEvents, {
          create: () => createWindowJoinOperator(node),
          backend: backends.factory(backend, `wj-${backend}`),
          keyOf: [key, key],
          phases: ph.phases,
          table: WINDOW_JOIN_TABLE,
        });
        assert.ok(got.late > 10, `late records were dropped (${got.late})`);
        assert.deepEqual(got.changes.map((c) => `${canonicalRow(c.row)} @${c.ts}`).sort(), want);
        assert.equal(got.finalEntries, 0, 'every window fired and was dropped');
      });
    }
  }
}

// Session window join: sessions per key over the records of BOTH inputs (referenceSessions), each
// fired session joins its left and right records.
const sessionEvents = randomSides(170, 2400, [
  { keys: 25, step: 6, jitter: 150, delay: 100, tag: 'l' },
  { keys: 25, step: 7, jitter: 150, delay: 100, tag: 'r' },
]);
const SESSION_GAP = 100;
const sessionRef = referenceSessions(sessionEvents, SESSION_GAP, [key, key]);
const sessionWant = sessionRef.fired
  .flatMap((s) => {
    const ls = s.records.filter((x) => x.input === 0),
      rs = s.records.filter((x) => x.input === 1);
    return ls.flatMap((l) =>
      rs.map(
        (r) =>
          `${canonicalRow({ window_start: iso(s.start), window_end: iso(s.end), user: l.row.user, lid: l.row.id, rid: r.row.id })} @${s.end - 1}`,
      ),
    );
  })
  .sort();
const sessionNode: JobNodeOf<'join.window'> = {
  id: 'wj',
  type: 'join.window',
  config: {
    leftKey: 'user',
    rightKey: 'user',
    window: { kind: 'session', gap: SESSION_GAP },
    select: 'window_start, window_end, L.user, L.id AS lid, R.id AS rid',
  },
};
for (const backend of BACKEND_KINDS) {
  for (const ph of PHASES) {
    test(`join.window session vs reference: ${backend}, ${ph.name}`, async () => {
      assert.ok(sessionWant.length > 1000, `the input joins (${sessionWant.length} pairs)`);
      assert.ok(sessionRef.bridges > 50, `records bridge and merge sessions (${sessionRef.bridges})`);
      assert.ok(
        sessionRef.fired.filter((s) => s.records.length === 1).length > 20,
        'the gap splits keys into several sessions',
      );
      const got = await drivePhased(sessionEvents, {
        create: () => createWindowJoinOperator(sessionNode),
        backend: backends.factory(backend, `wjs-${backend}`),
        keyOf: [key, key],
        phases: ph.phases,
        table: WINDOW_JOIN_TABLE,
      });
      assert.equal(got.late, sessionRef.late, 'late records dropped as the reference drops them');
      assert.ok(got.late > 10, `late records were dropped (${got.late})`);
      assert.deepEqual(got.changes.map((c) => `${canonicalRow(c.row)} @${c.ts}`).sort(), sessionWant);
      assert.equal(got.finalEntries, 0, 'every session fired and was dropped');
    });
  }
}
