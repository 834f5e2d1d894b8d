/** The SQL pieces of the relational nodes: COUNT(DISTINCT), FILTER (WHERE), L./R. select lists, ORDER BY lists. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  accumulatorFor,
  checkExpression,
  compileAggregates,
  parseExpressionAst,
  referencedColumns,
} from '../../../engine/sql/index.ts';
import { compileJoinSelect } from '../../../engine/sql/join-select.ts';
import { compileOrderBy } from '../../../engine/sql/order-by.ts';
import { filtersAsCase } from '../../../engine/export/flink-sql/aggregate-filters.ts';

function run(text: string, rows: Array<Record<string, unknown>>): Record<string, unknown> {
  const calls = compileAggregates(text);
  const out: Record<string, unknown> = {};
  for (const c of calls) {
    const acc = accumulatorFor(c.fn, c.distinct);
    let a = acc.create();
    for (const r of rows) a = acc.add(a, c.input(r));
    out[c.alias] = acc.result(a);
  }
  return out;
}

test('COUNT(DISTINCT x) counts distinct non-NULL values; 1 and "1" are different values', () => {
  const rows = [{ x: 1 }, { x: 1 }, { x: '1' }, { x: null }, { x: 2 }];
  assert.deepEqual(run('COUNT(DISTINCT x) AS d, COUNT(x) AS n', rows), { d: 3, n: 4 });
  const acc = accumulatorFor('COUNT', true);
  const merged = acc.merge(acc.add(acc.create(), 'a'), acc.add(acc.add(acc.create(), 'a'), 'b'));
  assert.equal(acc.result(merged), 2, 'merging (session windows) unions the values');
  assert.match(checkExpression('aggregates', 'SUM(DISTINCT x)')!.message, /only COUNT\(DISTINCT x\)/);
  assert.ok(checkExpression('aggregates', 'COUNT(DISTINCT *)'), 'COUNT(DISTINCT *) is an error');
});

test('FILTER (WHERE ...) feeds only matching rows, per aggregate, with SQL NULL logic', () => {
  const rows = [
    { v: 5, c: 'eu' },
    { v: 60, c: 'us' },
    { v: 70, c: null },
    { v: 80, c: 'eu' },
  ];
  assert.deepEqual(
    run(
      "COUNT(*) FILTER (WHERE v > 50) AS big, SUM(v) FILTER (WHERE c = 'eu') AS eu, MAX(v) FILTER (WHERE v < 0) AS none, COUNT(*) AS n",
      rows,
    ),
    { big: 3, eu: 85, none: null, n: 4 },
  );
  assert.deepEqual(referencedColumns('aggregates', "SUM(v) FILTER (WHERE c = 'eu') AS s"), ['v', 'c']);
  assert.equal(
    checkExpression('aggregates', 'COUNT(*) FILTER (WHERE v >) AS n')?.message,
    "expected an expression after '>' (column 26)",
  );
  assert.match(
    checkExpression('aggregates', 'COUNT(*) FILTER v > 1')!.message,
    /expected '\(WHERE condition\)' after FILTER \(column 10\)/,
  );
  assert.deepEqual(
    parseExpressionAst('aggregates', 'COUNT(*) FILTER (WHERE v > 1) AS n, SUM(v) AS s').map((i) => i.filter ?? null),
    ['v > 1', null],
  );
});

test('export spells FILTER as CASE WHEN inside the aggregate, keeping DISTINCT and string literals', () => {
  assert.equal(
    filtersAsCase(
      "COUNT(*) FILTER (WHERE a  = 'x  y') AS n, COUNT(DISTINCT u) FILTER (WHERE v > (1)) AS d, SUM(v) AS s",
    ),
    "COUNT(CASE WHEN a  = 'x  y' THEN 1 END) AS n, COUNT(DISTINCT CASE WHEN v > (1) THEN u END) AS d, SUM(v) AS s",
  );
});

test('a join select reads L./R. columns, names outputs without the prefix, pads a missing side with NULL', () => {
  const s = compileJoinSelect('L.user, L.amount * 2 AS double_amount, R.`home country` AS country');
  assert.deepEqual(s.columns, ['user', 'double_amount', 'country']);
  assert.deepEqual(s.project({ user: 'u', amount: 3 }, null), { user: 'u', double_amount: 6, country: null });
  assert.deepEqual(s.project(null, { 'home country': 'NL' }), { user: null, double_amount: null, country: 'NL' });
  const w = compileJoinSelect('window_start, L.user', { windowColumns: true });
  assert.deepEqual(w.project({ user: 'u' }, {}, { window_start: 'W' }), { window_start: 'W', user: 'u' });
  for (const [text, message] of [
    ['L.user, R.user', "duplicate column name 'user': give one an alias (... AS other_name) (column 9)"],
    ['user', "column 'user' needs an input prefix: L.user or R.user (column 1)"],
    ['X.user', "unknown input 'X': name columns L.x (left) or R.x (right) (column 1)"],
    ['*', "'*' is not allowed in a join's select: name the columns (L.x, R.y) (column 1)"],
  ] as const) {
    assert.throws(
      () => compileJoinSelect(text),
      (e: Error) => e.message === message,
      text,
    );
  }
});

test('ORDER BY lists: ASC by default, DESC, NULL smallest, mixed types ordered by their text', () => {
  const o = compileOrderBy('price DESC, ts');
  assert.deepEqual(o.items, [
    { expr: 'price', desc: true },
    { expr: 'ts', desc: false },
  ]);
  const rows = [
    { price: 5, ts: 2 },
    { price: 5, ts: 1 },
    { price: null, ts: 0 },
    { price: 9, ts: 3 },
  ];
  const sorted = [...rows].sort((a, b) => o.compareValues(o.valuesOf(a), o.valuesOf(b)));
  assert.deepEqual(sorted, [
    { price: 9, ts: 3 },
    { price: 5, ts: 1 },
    { price: 5, ts: 2 },
    { price: null, ts: 0 },
  ]);
  assert.throws(() => compileOrderBy('price DESC,'), /expected a column to order by \(column 12\)/);
  assert.throws(() => compileOrderBy('DESC'), /expected a column before DESC \(column 1\)/);
  assert.throws(() => compileOrderBy('price +'), /expected an expression after '\+' \(column 7\)/);
});
