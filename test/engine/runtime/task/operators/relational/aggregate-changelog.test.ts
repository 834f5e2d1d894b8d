/**
 * `aggregate` over a changelog input (Flink's GroupAggFunction with retraction): -U/-D rows
 * retract, a group whose row count reaches zero emits -D of its last result and drops its state,
 * FILTER judges the retracted row. Then Nexmark q4's shape, an aggregate of an aggregate: MAX per
 * auction over an updating input, AVG per category over that changelog, with a snapshot/restore of
 * both operators mid-run on every backend, folded and compared with a batch computation.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import type { JobNodeOf } from '../../../../../../engine/graph/types.ts';
import type { RecordBatch, Row, RowKind } from '../../../../../../engine/contracts/operator.ts';
import {
  AGGREGATE_TABLE,
  createAggregateOperator,
} from '../../../../../../engine/runtime/task/operators/relational/index.ts';
import { BACKEND_KINDS, createHarnessBackends, OperatorTestHarness } from '../../../../../support/harness/index.ts';
import { prng } from '../window/window-fixtures.ts';
import { foldChangelog, type Change } from './relational-fixtures.ts';
import { jobAround } from '../job-around.ts';

const backends = await createHarnessBackends();
after(() => backends.dispose());

function changelogAggregate(id: string, keyBy: string, aggregates: string) {
  const node: JobNodeOf<'aggregate'> = { id, type: 'aggregate', config: { keyBy, aggregates } };
  const job = jobAround(node, { changelogInput: true });
  return () => createAggregateOperator(node, job);
}

const batch = (kinds: RowKind[], rows: Row[]): RecordBatch => ({ rows, ts: rows.map(() => 0), kinds });

async function stateEntries(h: OperatorTestHarness): Promise<number> {
  let n = 0;
  for await (const _ of h.backend.table(AGGREGATE_TABLE).scan()) n++;
  return n;
}

test('retractions update a group; at zero rows it emits -D and forgets the group', async () => {
  const create = changelogAggregate(
    'agg',
    'user',
    'COUNT(*) AS n, SUM(v) AS s, MAX(v) AS hi, COUNT(*) FILTER (WHERE v > 5) AS big',
  );
  for (const kind of BACKEND_KINDS) {
    const h = await OperatorTestHarness.open(create, { backend: backends.factory(kind, `small-${kind}`) });
    const a = (v: number) => ({ user: 'a', v });
    await h.processBatch(batch(['+I', '+I', '-U', '+U'], [a(3), a(9), a(9), a(4)]));
    await h.processBatch(batch(['-D'], [{ user: 'ghost', v: 1 }])); // no state: dropped, as Flink does
    assert.equal(await stateEntries(h), 1, `${kind}: one group`);
    await h.processBatch(batch(['-D', '-D'], [a(3), a(4)]));
    assert.deepEqual(
      h.changelog().map((c) => `${c.kind} n=${c.row.n} s=${c.row.s} hi=${c.row.hi} big=${c.row.big}`),
      [
        '+I n=1 s=3 hi=3 big=0',
        '-U n=1 s=3 hi=3 big=0',
        '+U n=2 s=12 hi=9 big=1',
        '-U n=2 s=12 hi=9 big=1',
        '+U n=1 s=3 hi=3 big=0', // the -U of 9 retracts it from MAX and from the FILTERed count
        '-U n=1 s=3 hi=3 big=0',
        '+U n=2 s=7 hi=4 big=0',
        '-U n=2 s=7 hi=4 big=0',
        '+U n=1 s=4 hi=4 big=0',
        '-D n=1 s=4 hi=4 big=0',
      ],
      kind,
    );
    assert.equal(await stateEntries(h), 0, `${kind}: the empty group's state is gone`);
    await h.processBatch(batch(['+I'], [a(7)]));
    assert.equal(h.changelog().at(-1)!.kind, '+I', `${kind}: the group starts again with +I`);
    await h.close();
  }
});

test('a changelog batch into an aggregate planned append-only fails with a clear error', async () => {
  const node: JobNodeOf<'aggregate'> = {
    id: 'agg',
    type: 'aggregate',
    config: { keyBy: 'user', aggregates: 'COUNT(*) AS n' },
  };
  const h = await OperatorTestHarness.open(() => createAggregateOperator(node, jobAround(node)));
  await assert.rejects(
    h.processBatch(batch(['-D'], [{ user: 'a' }])),
    /aggregate 'agg' received a changelog, but its job graph gives it an append-only input/,
  );
  await h.close();
});

/** Bids on auctions (auction -> category fixed), inserted, re-priced (-U/+U) and withdrawn (-D). */
function bidChangelog(seed: number, count: number) {
  const rnd = prng(seed);
  const batches: RecordBatch[] = [];
  const alive: Row[] = [];
  let id = 0;
  while (id < count) {
    const rows: Row[] = [];
    const kinds: RowKind[] = [];
    for (let n = 1 + Math.floor(rnd() * 10); n > 0; n--) {
      const p = rnd();
      if (alive.length === 0 || p < 0.6) {
        const auction = Math.floor(rnd() * 40);
        const bid = { id: id++, auction, category: auction % 5, price: 1 + Math.floor(rnd() * 1000) };
        alive.push(bid);
        rows.push(bid);
        kinds.push('+I');
      } else {
        const i = Math.floor(rnd() * alive.length);
        rows.push(alive[i]);
        kinds.push(p < 0.85 ? '-U' : '-D');
        if (p < 0.85) {
          alive[i] = { ...alive[i], price: 1 + Math.floor(rnd() * 1000) };
          rows.push(alive[i]);
          kinds.push('+U');
        } else {
          alive.splice(i, 1);
        }
      }
    }
    batches.push({ rows, ts: rows.map(() => 0), kinds });
  }
  return { batches, alive };
}

/** The batch answer: MAX(price) per auction over the bids left, then AVG per category. */
function q4Reference(bids: Row[]): string[] {
  const maxPerAuction = new Map<number, { category: number; max: number }>();
  for (const b of bids) {
    const m = maxPerAuction.get(b.auction as number);
    if (!m || (b.price as number) > m.max) {
      maxPerAuction.set(b.auction as number, { category: b.category as number, max: b.price as number });
    }
  }
  const perCategory = new Map<number, number[]>();
  for (const { category, max } of maxPerAuction.values())
    perCategory.set(category, [...(perCategory.get(category) ?? []), max]);
  const rows: Change[] = [...perCategory.entries()].map(([category, maxes]) => ({
    kind: '+I',
    ts: 0,
    row: {
      category,
      // AVG of BIGINTs truncates toward zero, as Flink's.
      avg_price: Math.trunc(maxes.reduce((a, b) => a + b, 0) / maxes.length),
      auctions: maxes.length,
    },
  }));
  return foldChangelog(rows);
}

test("q4's shape: AVG per category over MAX per auction on an updating input equals the batch answer, across restore", async () => {
  const { batches, alive } = bidChangelog(4, 3000);
  const retractions = batches.flatMap((b) => b.kinds!).filter((k) => k === '-U' || k === '-D').length;
  assert.ok(retractions > 1000, 'the bids change a lot');
  const maxPerAuction = changelogAggregate('max', 'auction, category', 'MAX(price) AS final');
  const avgPerCategory = changelogAggregate('avg', 'category', 'AVG(final) AS avg_price, COUNT(*) AS auctions');
  const want = q4Reference(alive);
  const half = Math.floor(batches.length / 2);
  for (const kind of BACKEND_KINDS) {
    const b1 = backends.factory(kind, `q4-max-${kind}`);
    const b2 = backends.factory(kind, `q4-avg-${kind}`);
    let first = await OperatorTestHarness.open(maxPerAuction, { backend: b1 });
    let second = await OperatorTestHarness.open(avgPerCategory, { backend: b2 });
    const out: Change[] = [];
    let deletes = 0;
    for (const [i, b] of batches.entries()) {
      if (i === half) {
        // A checkpoint of both operators, then both restored into fresh ones (a failover).
        const [s1, s2] = [await first.snapshot(1), await second.snapshot(1)];
        out.push(...second.changelog());
        await first.close();
        await second.close();
        first = await OperatorTestHarness.open(maxPerAuction, { backend: b1 }, [s1]);
        second = await OperatorTestHarness.open(avgPerCategory, { backend: b2 }, [s2]);
      }
      first.clearOutput();
      await first.processBatch({ rows: b.rows.slice(), ts: b.ts.slice(), kinds: b.kinds!.slice() });
      const changes = first.changelog();
      deletes += changes.filter((c) => c.kind === '-D').length;
      if (changes.length > 0) {
        await second.processBatch({
          rows: changes.map((c) => c.row),
          ts: changes.map((c) => c.ts),
          kinds: changes.map((c) => c.kind),
        });
      }
    }
    out.push(...second.changelog());
    assert.ok(deletes > 0, `${kind}: some auctions lost all their bids (-D from MAX per auction)`);
    assert.deepEqual(foldChangelog(out), want, `${kind}: the folded result equals the batch answer`);
    await first.close();
    await second.close();
  }
});

test('restoring append-only aggregate state into a changelog plan fails with a clear error', async () => {
  const node: JobNodeOf<'aggregate'> = {
    id: 'agg',
    type: 'aggregate',
    config: { keyBy: 'user', aggregates: 'MAX(v) AS hi' },
  };
  const before = await OperatorTestHarness.open(() => createAggregateOperator(node, jobAround(node)));
  await before.processElements([{ row: { user: 'a', v: 1 }, ts: 5 }]);
  const snap = await before.snapshot(1);
  await before.close();
  const after = await OperatorTestHarness.open(changelogAggregate('agg', 'user', 'MAX(v) AS hi'), {}, [snap]);
  await assert.rejects(
    after.processBatch(batch(['-D'], [{ user: 'a', v: 1 }])),
    /aggregate 'agg': its state holds 1 accumulators per entry, but the job now computes 2/,
  );
  await after.close();
});
