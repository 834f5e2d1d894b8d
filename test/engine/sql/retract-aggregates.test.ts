/**
 * Accumulators with retraction (engine/sql/retract-aggregates.ts): retracting what was added gives
 * back exactly the state of never having added it, MIN/MAX fall back to the next extreme, DECIMAL
 * and float sums stay exact, and every state survives a JSON round trip (what keyed state does).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { retractingAccumulatorFor, type AggregateFn } from '../../../engine/sql/index.ts';
import { decimalFromLiteral } from '../../../engine/sql/decimal.ts';
import { compileWindowAggregates } from '../../../engine/runtime/task/operators/window/aggregates.ts';

function fold(fn: AggregateFn, adds: unknown[], retracts: unknown[], distinct = false): unknown {
  const a = retractingAccumulatorFor(fn, distinct);
  let acc = a.create();
  for (const v of adds) acc = a.add(acc, v);
  // through JSON between the two phases: the state a checkpoint would restore
  acc = JSON.parse(JSON.stringify(acc));
  for (const v of retracts) acc = a.retract(acc, v);
  return a.result(acc);
}

test('COUNT, SUM, AVG retract exactly; back to no rows gives their empty results', () => {
  assert.equal(fold('COUNT', [1, 2, null, 3], [2]), 2);
  assert.equal(fold('COUNT', [1, 2], [1, 2]), 0);
  assert.equal(fold('SUM', [5, 7, null, 11], [7]), 16);
  assert.equal(fold('SUM', [5, 7], [5, 7]), null, 'SUM of no rows is NULL, not 0');
  assert.equal(fold('SUM', [0, 5], [5]), 0, 'SUM of a remaining 0 is 0, not NULL');
  assert.equal(fold('AVG', [4, 8, 9], [9]), 6);
  assert.equal(fold('AVG', [4, 8], [4, 8]), null);
});

test('float sums stay exact under retraction: 0.1 + 0.2 + 0.3 - 0.2 is 0.4 exactly', () => {
  assert.equal(fold('SUM', [0.1, 0.2, 0.3], [0.2]), 0.1 + 0.3);
  assert.equal(fold('SUM', [1e16, 1, -1e16, 0.5], [1e16, -1e16]), 1.5);
  assert.equal(fold('AVG', [0.1, 0.2, 0.3], [0.3]), (0.1 + 0.2) / 2);
});

test('DECIMAL sums retract exactly and stay DECIMAL', () => {
  const d = (t: string) => decimalFromLiteral(t)!;
  assert.equal(fold('SUM', [d('0.10'), d('0.20'), d('1234567890123.45')], [d('1234567890123.45')]), 0.3);
  const a = retractingAccumulatorFor('SUM');
  let acc = a.create();
  for (const v of [d('0.10'), d('0.20'), d('0.30')]) acc = a.add(acc, v);
  acc = a.retract(acc, d('0.20'));
  // The unscaled digits are a number while they are a safe integer, a digit string beyond.
  const [sumAcc, rows] = acc as [{ u: number | string; s: number }, number];
  assert.deepEqual([String(sumAcc.u), sumAcc.s, rows], ['40', 2, 2], 'the sum is the exact DECIMAL 0.40');
});

test('MAX/MIN with retraction: retracting the current extreme falls back to the next one', () => {
  assert.equal(fold('MAX', [3, 9, 5, 9], [9]), 9, 'one of two 9s retracted: still 9');
  assert.equal(fold('MAX', [3, 9, 5, 9], [9, 9]), 5);
  assert.equal(fold('MIN', [3, 9, 5], [3]), 5);
  assert.equal(fold('MIN', [3, 9], [3, 9]), null);
  assert.equal(fold('MAX', ['b', 'a', 'c'], ['c']), 'b', 'strings compare as SQL does');
  assert.equal(fold('MAX', [3, 9], [42]), 9, 'a retraction of a value never added is ignored');
});

test('COUNT(DISTINCT) with retraction counts per distinct value', () => {
  assert.equal(fold('COUNT', ['x', 'y', 'x'], ['x'], true), 2, 'x still there once');
  assert.equal(fold('COUNT', ['x', 'y', 'x'], ['x', 'x'], true), 1);
  assert.equal(fold('COUNT', [1, '1'], [1], true), 1, "1 and '1' stay apart");
});

test('a random add/retract sequence matches recomputing from the remaining rows', () => {
  let seed = 7;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const aggs = compileWindowAggregates(
    'COUNT(*) AS n, SUM(v) AS s, MIN(v) AS lo, MAX(v) AS hi, AVG(v) AS m, COUNT(DISTINCT v) AS d, ' +
      'COUNT(*) FILTER (WHERE v > 5) AS big',
    undefined,
    { changelog: true },
  );
  const rows: Array<{ v: number }> = [];
  let accs = aggs.create();
  for (let step = 0; step < 2000; step++) {
    if (rows.length > 0 && rnd() < 0.45) {
      const [row] = rows.splice(Math.floor(rnd() * rows.length), 1);
      aggs.retract(accs, row);
    } else {
      const row = { v: Math.floor(rnd() * 10) + (rnd() < 0.3 ? 0.25 : 0) };
      rows.push(row);
      aggs.add(accs, row);
    }
    if (step % 97 === 0) accs = JSON.parse(JSON.stringify(accs));
    const got: Record<string, unknown> = {};
    aggs.results(accs, got);
    const vs = rows.map((r) => r.v);
    const sum = vs.reduce((a, b) => a + b, 0);
    const want = {
      n: vs.length,
      s: vs.length ? sum : null,
      lo: vs.length ? Math.min(...vs) : null,
      hi: vs.length ? Math.max(...vs) : null,
      d: new Set(vs).size,
      big: vs.filter((v) => v > 5).length,
    };
    const { m, ...rest } = got;
    assert.deepEqual(rest, want, `step ${step}`);
    assert.equal(aggs.isEmpty(accs), rows.length === 0, `step ${step}: empty`);
    if (vs.length) assert.ok(Math.abs((m as number) - sum / vs.length) < 1e-9, `step ${step}: avg`);
  }
});

test('append-only plans keep the plain accumulators: same state layout, no hidden count', () => {
  const plain = compileWindowAggregates('COUNT(*) AS n, MAX(v) AS hi, SUM(v) AS s');
  const accs = plain.create();
  plain.add(accs, { v: 4 });
  assert.deepEqual(accs, [1, 4, 4], 'the layout old checkpoints hold');
  assert.equal(plain.isEmpty(accs), false);
  assert.throws(() => plain.retract(accs, { v: 4 }), /append-only/);
});
