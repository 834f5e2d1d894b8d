import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compileProjection, compileProjectionDetailed, parseKeyBy } from '../../../engine/sql/index.ts';

describe('compileProjection (map.select)', () => {
  it('names columns by alias, by column, or EXPR$i as Flink does', () => {
    const p = compileProjection('user, amount * 2 AS dbl, UPPER(user), amount total, `order id`');
    assert.deepEqual(p.columns, [
      { name: 'user', expr: 'user', sourceColumn: 'user', type: 'UNKNOWN' },
      { name: 'dbl', expr: 'amount * 2', type: 'UNKNOWN' },
      { name: 'EXPR$2', expr: 'UPPER(user)', type: 'STRING' },
      { name: 'total', expr: 'amount', sourceColumn: 'amount', type: 'UNKNOWN' },
      { name: 'order id', expr: '`order id`', sourceColumn: 'order id', type: 'UNKNOWN' },
    ]);
    const out = p.project({ user: 'ann', amount: 5, 'order id': 7, extra: true });
    assert.deepEqual(out, { user: 'ann', dbl: 10, EXPR$2: 'ANN', total: 5, 'order id': 7 });
    assert.deepEqual(Object.keys(out), ['user', 'dbl', 'EXPR$2', 'total', 'order id'], 'select-list order');
  });
  it('gives a declared DECIMAL column passed through as a JSON number, as it does an expression of it', () => {
    // A CDC source's numeric column into sink.kafka: a Decimal object there failed the job with
    // "Do not know how to serialize a BigInt".
    const types = new Map([['amount', { type: 'DECIMAL' as const, precision: 10, scale: 2 }]]);
    const p = compileProjectionDetailed('amount, amount AS a, ROUND(amount * 1.2, 2) AS gross', types);
    const out = p.project({ amount: 176 });
    assert.deepEqual(out, { amount: 176, a: 176, gross: 211.2 });
    assert.equal(JSON.stringify(out), '{"amount":176,"a":176,"gross":211.2}');
  });
  it('gives missing columns as NULL', () => {
    assert.deepEqual(compileProjection('a, b + 1 AS c').project({}), { a: null, c: null });
  });
  it('passes every column through for *, plus extra columns', () => {
    const star = compileProjection('*');
    assert.equal(star.columns, null);
    const row = { a: 1, b: 'x' };
    const out = star.project(row);
    assert.deepEqual(out, row);
    assert.notEqual(out, row, 'a new row: operators may keep both');
    const plus = compileProjection('*, a + 1 AS a1, b AS a');
    assert.equal(plus.columns, null);
    assert.deepEqual(plus.project(row), { a: 'x', b: 'x', a1: 2 }, 'extra columns override same-named input columns');
  });
  it('infers static types', () => {
    const p = compileProjection(
      "1 AS i, 1.5 AS d, 'x' AS s, TRUE AS b, a > 1 AS c, CAST(a AS BIGINT) AS ci, " +
        'CAST(a AS TIMESTAMP) AS t, CAST(a AS DECIMAL(10, 2)) AS dec, CHAR_LENGTH(s) AS n, 1 + 2.0 AS sum, a + 1 AS u',
    );
    assert.deepEqual(
      p.columns!.map((c) => [c.name, c.type]),
      [
        ['i', 'BIGINT'],
        ['d', 'DECIMAL'],
        ['s', 'STRING'],
        ['b', 'BOOLEAN'],
        ['c', 'BOOLEAN'],
        ['ci', 'BIGINT'],
        ['t', 'TIMESTAMP'],
        ['dec', 'DECIMAL'],
        ['n', 'BIGINT'],
        ['sum', 'DECIMAL'],
        ['u', 'UNKNOWN'],
      ],
    );
  });
  it('folds constant sub-expressions once', () => {
    const p = compileProjection("UPPER('a') || CAST(1 + 2 AS STRING) AS k, a AS a");
    assert.deepEqual(p.project({ a: 1 }), { k: 'A3', a: 1 });
  });
});

describe('parseKeyBy (window.keyBy)', () => {
  it('reads a column list and makes stable keys', () => {
    const k = parseKeyBy('user, `region`');
    assert.deepEqual(k.columns, ['user', 'region']);
    const row = { user: 'ann', region: 'eu', amount: 3 };
    assert.deepEqual(k.valuesOf(row), ['ann', 'eu']);
    assert.equal(k.keyOf(row), '["ann","eu"]');
    assert.equal(k.keyOf({ region: 'eu', user: 'ann' }), k.keyOf(row), 'independent of property order');
  });
  it('keyOf is JSON.stringify(valuesOf) and keeps 1 apart from "1" and NULL', () => {
    const one = parseKeyBy('k');
    const rows = [{ k: 1 }, { k: '1' }, { k: null }, {}, { k: true }, { k: 'a"b' }, { k: 1.5 }, { k: -0 }];
    for (const r of rows) assert.equal(one.keyOf(r), JSON.stringify(one.valuesOf(r)), JSON.stringify(r));
    assert.notEqual(one.keyOf({ k: 1 }), one.keyOf({ k: '1' }));
    assert.equal(one.keyOf({}), one.keyOf({ k: null }), 'a missing key column is NULL');
    const two = parseKeyBy('a, b');
    for (const r of [{ a: 1, b: 'x' }, { a: null }, { b: 2 }])
      assert.equal(two.keyOf(r), JSON.stringify(two.valuesOf(r)));
    assert.notEqual(two.keyOf({ a: 'x,y', b: 'z' }), two.keyOf({ a: 'x', b: 'y,z' }));
  });
  it('keyOf (one or two columns) stays JSON.stringify(valuesOf) while it memoizes and after it stops (near-unique keys)', () => {
    const repeated = parseKeyBy('k');
    const unique = parseKeyBy('k');
    const odd = [null, NaN, Infinity, -0, 0, true, 'a"b', '\u2028', 1e21, { x: 1 }];
    for (let i = 0; i < 130_000; i++) {
      const r = { k: i % 7 === 0 ? odd[i % odd.length] : i % 3 === 0 ? i % 50 : `k${i % 40}` };
      assert.equal(repeated.keyOf(r), JSON.stringify(repeated.valuesOf(r)));
      const u = { k: i % 2 === 0 ? `u${i}` : i + 0.5 };
      assert.equal(unique.keyOf(u), JSON.stringify(unique.valuesOf(u)));
    }
    assert.equal(unique.keyOf({ k: 'u0' }), '["u0"]');
    const pairs = parseKeyBy('a, b');
    const uniquePairs = parseKeyBy('a, b');
    for (let i = 0; i < 130_000; i++) {
      const r = { a: i % 7 === 0 ? odd[i % odd.length] : i % 5, b: i % 11 === 0 ? odd[i % odd.length] : `b${i % 30}` };
      assert.equal(pairs.keyOf(r), JSON.stringify(pairs.valuesOf(r)));
      const u = { a: i % 3, b: i % 2 === 0 ? `u${i}` : i + 0.5 };
      assert.equal(uniquePairs.keyOf(u), JSON.stringify(uniquePairs.valuesOf(u)));
    }
    assert.equal(pairs.keyOf({ a: -0, b: 'x' }), '[0,"x"]');
    assert.equal(repeated.keyOf({ k: -0 }), '[0]');
    assert.equal(repeated.single?.({ k: 5 }), 5, 'single: the one key column');
    assert.equal(parseKeyBy('a, b').single, null);
  });
  it('accepts reserved words as key columns', () => {
    assert.deepEqual(parseKeyBy('key').columns, ['key']);
    assert.deepEqual(parseKeyBy('user').columns, ['user']);
    assert.deepEqual(parseKeyBy('value, date').columns, ['value', 'date']);
  });
  it('empty keyBy is one global group', () => {
    const k = parseKeyBy('  ');
    assert.deepEqual(k.columns, []);
    assert.equal(k.keyOf({ a: 1 }), '[]');
    assert.deepEqual(k.valuesOf({ a: 1 }), []);
  });
});
