import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { accumulatorFor, compileAggregates, type AggregateCall, type Row } from '../../../engine/sql/index.ts';

/** Folds rows through each call's accumulator, as the window operator does, via a JSON round-trip. */
function aggregate(calls: AggregateCall[], rows: Row[]): Row {
  const accs = calls.map((c) => accumulatorFor(c.fn).create());
  for (const row of rows) {
    calls.forEach((c, i) => {
      accs[i] = accumulatorFor(c.fn).add(accs[i], c.input(row));
    });
  }
  const restored = JSON.parse(JSON.stringify(accs)) as unknown[];
  const out: Row = {};
  calls.forEach((c, i) => {
    out[c.alias] = accumulatorFor(c.fn).result(restored[i]);
  });
  return out;
}

describe('compileAggregates', () => {
  it('reads calls, aliases and argument text', () => {
    const calls = compileAggregates(
      'COUNT(*) AS n, SUM(amount) AS total, MAX(amount) top, avg( x * 2 ), MIN(`y z`) AS lo, count(x)',
    );
    assert.deepEqual(
      calls.map((c) => [c.alias, c.fn, c.argText]),
      [
        ['n', 'COUNT', null],
        ['total', 'SUM', 'amount'],
        ['top', 'MAX', 'amount'],
        ['EXPR$3', 'AVG', 'x * 2'],
        ['lo', 'MIN', '`y z`'],
        ['EXPR$5', 'COUNT', 'x'],
      ],
    );
    assert.equal(calls[0].arg, null);
    assert.equal(calls[0].input({}), 1, 'COUNT(*) feeds a non-NULL value per row');
    assert.equal(calls[3].arg!({ x: 4 }), 8);
  });
  it('computes COUNT, SUM, MIN, MAX, AVG with NULLs ignored', () => {
    const calls = compileAggregates(
      'COUNT(*) AS n, COUNT(x) AS nx, SUM(x) AS s, MIN(x) AS lo, MAX(x) AS hi, AVG(x) AS a',
    );
    const rows = [{ x: 4 }, { x: null }, {}, { x: 1 }, { x: 7 }];
    assert.deepEqual(aggregate(calls, rows), { n: 5, nx: 3, s: 12, lo: 1, hi: 7, a: 4 });
  });
  it('gives NULL for SUM/MIN/MAX/AVG of no values and 0 for COUNT', () => {
    const calls = compileAggregates(
      'COUNT(*) AS n, COUNT(x) AS nx, SUM(x) AS s, MIN(x) AS lo, MAX(x) AS hi, AVG(x) AS a',
    );
    assert.deepEqual(aggregate(calls, []), { n: 0, nx: 0, s: null, lo: null, hi: null, a: null });
    assert.deepEqual(aggregate(calls, [{ x: null }, {}]), { n: 2, nx: 0, s: null, lo: null, hi: null, a: null });
  });
  it('aggregates expressions, numeric strings and strings', () => {
    const calls = compileAggregates(
      'SUM(x * 2) AS s, MIN(name) AS first, MAX(name) AS last, SUM(CASE WHEN ok THEN 1 ELSE 0 END) AS oks',
    );
    const rows = [
      { x: '1', name: 'bob', ok: true },
      { x: 2, name: 'ann', ok: false },
      { x: 3, name: 'cy', ok: true },
    ];
    assert.deepEqual(aggregate(calls, rows), { s: 12, first: 'ann', last: 'cy', oks: 2 });
  });
  it("AVG's type is its input's, as Flink's (AVG of integers truncates, of DECIMALs has scale max(6, s))", () => {
    // Flink: LogicalTypeMerging.findAvgAggType; AvgAggFunction divides BIGINT sum by BIGINT count.
    assert.deepEqual(aggregate(compileAggregates('AVG(x) AS a'), [{ x: 1 }, { x: 2 }]), { a: 1 });
    assert.deepEqual(aggregate(compileAggregates('AVG(x) AS a'), [{ x: -1 }, { x: -2 }]), { a: -1 }, 'toward zero');
    assert.deepEqual(aggregate(compileAggregates('AVG(x) AS a'), [{ x: 1 }, { x: 2.5 }]), { a: 1.75 });
    assert.deepEqual(aggregate(compileAggregates('AVG(x * 1.0) AS a'), [{ x: 1 }, { x: 2 }, { x: 2 }]), {
      a: 1.666667,
    });
    assert.deepEqual(aggregate(compileAggregates('AVG(CAST(x AS DOUBLE)) AS a'), [{ x: 1 }, { x: 2 }]), { a: 1.5 });
  });
});

describe('accumulators', () => {
  const values = [5, null, 3, 9, null, 1, 4];
  for (const fn of ['COUNT', 'SUM', 'MIN', 'MAX', 'AVG'] as const) {
    it(`${fn}: merging partial accumulators equals one pass (session windows)`, () => {
      const acc = accumulatorFor(fn);
      let whole = acc.create();
      for (const v of values) whole = acc.add(whole, v);
      for (let split = 0; split <= values.length; split++) {
        let a = acc.create();
        let b = acc.create();
        for (const v of values.slice(0, split)) a = acc.add(a, v);
        for (const v of values.slice(split)) b = acc.add(b, v);
        const bCopy = JSON.stringify(b);
        const merged = acc.merge(JSON.parse(JSON.stringify(a)), b);
        assert.deepEqual(acc.result(merged), acc.result(whole), `split at ${split}`);
        assert.equal(JSON.stringify(b), bCopy, 'merge leaves its second argument unchanged');
      }
      assert.deepEqual(acc.result(acc.merge(acc.create(), acc.create())), acc.result(acc.create()));
    });
  }
  it('accumulators are plain JSON values', () => {
    for (const fn of ['COUNT', 'SUM', 'MIN', 'MAX', 'AVG'] as const) {
      const acc = accumulatorFor(fn);
      let s = acc.create();
      s = acc.add(s, 2);
      assert.deepEqual(JSON.parse(JSON.stringify(s)), s, fn);
    }
    assert.equal(accumulatorFor('COUNT').result(accumulatorFor('COUNT').add(0, null)), 0);
    assert.deepEqual(accumulatorFor('AVG').create(), [0, 0, 0]);
  });
  it('MIN/MAX compare strings and numbers, SUM skips non-numeric values', () => {
    const max = accumulatorFor('MAX');
    assert.equal(max.result(['b', 'a', 'c'].reduce((acc, v) => max.add(acc, v), max.create())), 'c');
    const sum = accumulatorFor('SUM');
    assert.equal(sum.result([1, 'x', '2', true].reduce((acc, v) => sum.add(acc, v), sum.create())), 3);
  });
});
