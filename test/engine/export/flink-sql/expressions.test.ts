import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rewriteExpr, splitSelectList } from '../../../../engine/export/flink-sql/expressions.ts';
import { quoteIdent, setStatement, sqlString } from '../../../../engine/export/flink-sql/identifiers.ts';
import { configDuration, intervalLiteral } from '../../../../engine/export/flink-sql/intervals.ts';
import type { Col } from '../../../../engine/export/flink-sql/context.ts';
import { flinkSyntaxErrors } from './grammar.ts';

const cols: Col[] = [
  { name: 'user', type: 'STRING', certain: true },
  { name: 'value', type: 'BIGINT', certain: true },
  { name: 'amount', type: 'DOUBLE', certain: true },
  { name: 'qty', type: 'INT', certain: true },
  { name: 'my col', type: 'STRING', certain: true },
];

test('identifiers are quoted only when Flink needs it', () => {
  assert.equal(quoteIdent('amount'), 'amount');
  assert.equal(quoteIdent('value'), '`value`');
  assert.equal(quoteIdent('User'), '`User`');
  assert.equal(quoteIdent('my col'), '`my col`');
  assert.equal(quoteIdent('a`b'), '`a``b`');
  assert.equal(quoteIdent('1st'), '`1st`');
  assert.equal(sqlString("it's"), "'it''s'");
  assert.equal(setStatement('a.b', 3), "SET 'a.b' = '3';");
});

test('expressions pass through with keyword columns quoted', () => {
  assert.equal(rewriteExpr("value > 10 AND user LIKE 'a%'", cols), "`value` > 10 AND `user` LIKE 'a%'");
  assert.equal(rewriteExpr('`my col` IS NOT NULL', cols), '`my col` IS NOT NULL');
  // Function names, CAST target types and non-columns stay as written, spacing and comments too.
  assert.equal(
    rewriteExpr('UPPER( user )  ||  CAST(value AS STRING) -- why', cols),
    'UPPER( `user` )  ||  CAST(`value` AS STRING) -- why',
  );
  assert.equal(
    rewriteExpr('CASE WHEN qty > 1 THEN amount ELSE 0 END', cols),
    'CASE WHEN qty > 1 THEN amount ELSE 0 END',
  );
  // AVG passes through: Weir's AVG of integers truncates as Flink's (no CAST to DOUBLE any more).
  assert.equal(rewriteExpr('AVG(qty) + AVG(DISTINCT value)', cols), 'AVG(qty) + AVG(DISTINCT `value`)');
  assert.equal(
    rewriteExpr('MAX(window_end)', [{ name: 'window_end', type: 'STRING', certain: true }], {
      rename: new Map([['window_end', 'input_window_end']]),
    }),
    'MAX(input_window_end)',
  );
});

// The items' types are the planner's (test/engine/sql/flink-result-types.test.ts): the export
// declares them (planner-types.ts) and has no inference of its own.
test('select lists: names, aliases and rewritten expressions', () => {
  const items = splitSelectList(
    "user, value * 2 AS doubled, amount + qty total, UPPER(user), CAST(qty AS BIGINT) AS q, qty / 2 AS half, qty > 1 AS big, 'x' AS s, COALESCE(amount, 0) AS c, CASE WHEN qty > 1 THEN 'a' ELSE 'b' END AS k, qty * 1.5 AS dec, `my col` AS mc",
    cols,
  );
  const byName = Object.fromEntries(items.map((i) => [i.name, i]));
  assert.deepEqual(
    items.map((i) => i.name),
    ['user', 'doubled', 'total', 'EXPR$3', 'q', 'half', 'big', 's', 'c', 'k', 'dec', 'mc'],
  );
  assert.equal(byName.user.expr, '`user`');
  assert.equal(byName.doubled.expr, '`value` * 2');
  assert.equal(byName.EXPR$3.generatedName, true);
  assert.equal(byName.mc.expr, '`my col`');
  const aggs = splitSelectList(
    'COUNT(*) AS n, SUM(qty) AS total, AVG(qty) AS mean, MIN(amount) AS low, MAX(`user`) AS last',
    cols,
  );
  assert.deepEqual(
    aggs.map((a) => [a.name, a.expr]),
    [
      ['n', 'COUNT(*)'],
      ['total', 'SUM(qty)'],
      ['mean', 'AVG(qty)'],
      ['low', 'MIN(amount)'],
      ['last', 'MAX(`user`)'],
    ],
  );
});

test("interval literals respect Calcite's default precision of 2 digits", () => {
  assert.equal(intervalLiteral(10_000), "INTERVAL '10' SECOND");
  assert.equal(intervalLiteral(300_000), "INTERVAL '5' MINUTE");
  assert.equal(intervalLiteral(150_000), "INTERVAL '2:30' MINUTE TO SECOND");
  assert.equal(intervalLiteral(6_000_000), "INTERVAL '1:40:00' HOUR TO SECOND");
  assert.equal(intervalLiteral(99_000), "INTERVAL '99' SECOND");
  assert.equal(intervalLiteral(1500), "INTERVAL '1.5' SECOND");
  assert.equal(intervalLiteral(250), "INTERVAL '0.25' SECOND");
  assert.equal(intervalLiteral(1), "INTERVAL '0.001' SECOND");
  assert.equal(intervalLiteral(36 * 3_600_000), "INTERVAL '36' HOUR");
  assert.equal(intervalLiteral(5 * 86_400_000 + 1), "INTERVAL '5 00:00:00.001' DAY TO SECOND");
  assert.equal(intervalLiteral(100_500), "INTERVAL '1:40.5' MINUTE TO SECOND");
  assert.equal(intervalLiteral(360_000_000), "INTERVAL '4 04:00:00' DAY TO SECOND");
  for (const ms of [10_000, 150_000, 1500, 100_500, 6_000_000, 5 * 86_400_000 + 1]) {
    assert.deepEqual(
      flinkSyntaxErrors(`SELECT * FROM t WHERE a > b - ${intervalLiteral(ms)};`),
      [],
      intervalLiteral(ms),
    );
  }
});

test("configuration durations use Flink's units", () => {
  assert.equal(configDuration(1000), '1 s');
  assert.equal(configDuration(600_000), '10 min');
  assert.equal(configDuration(7_200_000), '2 h');
  assert.equal(configDuration(86_400_000), '1 d');
  assert.equal(configDuration(1500), '1500 ms');
  assert.equal(configDuration(0), '0 ms');
});

test('DATE_FORMAT of epoch milliseconds is DATE_FORMAT of TO_TIMESTAMP_LTZ (UTC session zone); of text or TIMESTAMP as is', () => {
  const c: Col[] = [
    { name: 'dateTime', type: 'BIGINT', certain: true },
    { name: 'ts', type: 'TIMESTAMP(3)', certain: true },
    { name: 's', type: 'STRING', certain: true },
  ];
  assert.equal(
    rewriteExpr("DATE_FORMAT(dateTime, 'yyyy-MM-dd')", c),
    "DATE_FORMAT(TO_TIMESTAMP_LTZ(`dateTime`, 3), 'yyyy-MM-dd')",
  );
  assert.equal(
    rewriteExpr("MAX(DATE_FORMAT( dateTime + 1000 , 'HH:mm'))", c),
    "MAX(DATE_FORMAT( TO_TIMESTAMP_LTZ(`dateTime` + 1000, 3) , 'HH:mm'))",
  );
  assert.equal(rewriteExpr("DATE_FORMAT(ts, 'HH')", c), "DATE_FORMAT(ts, 'HH')");
  assert.equal(rewriteExpr("DATE_FORMAT(s, 'HH')", c), "DATE_FORMAT(s, 'HH')");
  const sql = `SELECT ${rewriteExpr("DATE_FORMAT(dateTime, 'yyyy-MM-dd') AS d", c)} FROM t;`;
  assert.deepEqual(flinkSyntaxErrors(sql), []);
});
