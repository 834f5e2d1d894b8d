/**
 * `importFlinkSql` on hand-written relational SQL: GROUP BY without a window, ROW_NUMBER Top-N
 * (per window too), regular, interval and window joins become aggregate, topn, join, join.interval
 * and join.window nodes; what they cannot hold is reported with its line and column.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importFlinkSql } from '../../../../engine/import/flink-sql/index.ts';
import { runJobInProcess } from '../../../support/harness/run-in-process.ts';
import { at, importedScript, viewErrors, writeJsonl } from './views-support.ts';

const TABLES = `CREATE TABLE orders (
  order_id BIGINT, cid BIGINT, amount DOUBLE, product STRING, ts BIGINT,
  rt AS TO_TIMESTAMP_LTZ(ts, 3),
  WATERMARK FOR rt AS rt - INTERVAL '0.001' SECOND
) WITH ('connector' = 'filesystem', 'path' = 'orders.jsonl', 'format' = 'json');
CREATE TABLE customers (
  id BIGINT, name STRING, ts BIGINT,
  rt AS TO_TIMESTAMP_LTZ(ts, 3),
  WATERMARK FOR rt AS rt - INTERVAL '0.001' SECOND
) WITH ('connector' = 'filesystem', 'path' = 'customers.jsonl', 'format' = 'json');
`;

const imported = (views: string) => importedScript(TABLES + views);
const errors = viewErrors;

test('GROUP BY without a window: an aggregate; CASE WHEN inside an aggregate is FILTER again; WHERE a filter', () => {
  const { job, problems, byId, edges } = imported(`
CREATE VIEW per_customer AS
SELECT cid, COUNT(*) AS n, COUNT(DISTINCT product) AS products,
  SUM(CASE WHEN amount > 10 THEN amount END) AS big, COUNT(CASE WHEN amount > 50 THEN 1 END) AS premium,
  COUNT(DISTINCT CASE WHEN amount > 5 THEN product END) AS sold, MAX(CASE WHEN amount > 1 THEN amount ELSE 0 END) AS m
FROM orders WHERE product <> 'gift' GROUP BY cid;`);
  assert.deepEqual(problems, []);
  assert.deepEqual(byId.per_customer.config, {
    keyBy: 'cid',
    aggregates:
      'COUNT(*) AS n, COUNT(DISTINCT product) AS products, SUM(amount) FILTER (WHERE amount > 10) AS big, ' +
      'COUNT(*) FILTER (WHERE amount > 50) AS premium, COUNT(DISTINCT product) FILTER (WHERE amount > 5) AS sold, ' +
      // With ELSE it is not the FILTER form: kept as written.
      'MAX(CASE WHEN amount > 1 THEN amount ELSE 0 END) AS m',
  });
  assert.deepEqual(byId.per_customer_where.config, { where: "product <> 'gift'" });
  assert.deepEqual(edges, ['orders->per_customer_where', 'per_customer_where->per_customer']);
  assert.deepEqual(errors(job), []);
});

test('ROW_NUMBER Top-N: topn with its limit (<=, <, = 1), a window Top-N, and a map for a narrower SELECT', () => {
  const { job, problems, byId, edges } = imported(`
CREATE VIEW top2 AS
SELECT order_id, cid, amount, product, ts, rownum FROM (
  SELECT order_id, cid, amount, product, ts, ROW_NUMBER() OVER (PARTITION BY cid ORDER BY amount DESC, ts) AS rownum
  FROM orders
) WHERE rownum < 3;
CREATE VIEW first_order AS
SELECT * FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY cid ORDER BY ts ASC) AS rownum FROM orders
) WHERE rownum = 1;
CREATE VIEW top_per_minute AS
SELECT window_start, window_end, cid, amount, rownum FROM (
  SELECT cid, amount, window_start, window_end,
    ROW_NUMBER() OVER (PARTITION BY window_start, window_end, cid ORDER BY amount DESC) AS rownum
  FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(rt), INTERVAL '1' MINUTE))
) WHERE rownum <= 3;`);
  assert.deepEqual(problems, []);
  assert.deepEqual(byId.top2.config, { partitionBy: 'cid', orderBy: 'amount DESC, ts', limit: 2 });
  assert.deepEqual(byId.first_order.config, { partitionBy: 'cid', orderBy: 'ts ASC', limit: 1 });
  assert.deepEqual(byId.top_per_minute.config, {
    partitionBy: 'cid',
    orderBy: 'amount DESC',
    limit: 3,
    window: { kind: 'tumbling', size: '1m' },
  });
  // The window Top-N writes every input column; this SELECT keeps some: a map after it.
  assert.deepEqual(byId.top_per_minute_select.config, { select: 'window_start, window_end, cid, amount, rownum' });
  assert.deepEqual(edges.sort(), [
    'orders->first_order',
    'orders->top2',
    'orders->top_per_minute',
    'top_per_minute->top_per_minute_select',
  ]);
  assert.deepEqual(errors(job), []);
});

test('regular joins: any aliases become L. / R., keys either way round, bare columns resolved to their side', () => {
  const { job, problems, byId, edges } = imported(`
CREATE VIEW with_customer AS
SELECT o.order_id, c.name AS customer, amount * 2 AS doubled
FROM orders AS o LEFT JOIN customers AS c ON c.id = o.cid;
CREATE VIEW everyone AS
SELECT orders.order_id, customers.name FROM orders FULL OUTER JOIN customers ON orders.cid = customers.id;
CREATE VIEW matched AS
SELECT L.order_id AS order_id, R.name FROM orders AS L JOIN customers AS R ON L.cid = R.id AND L.product = R.name;`);
  assert.deepEqual(problems, []);
  assert.deepEqual(byId.with_customer.config, {
    kind: 'left',
    leftKey: 'cid',
    rightKey: 'id',
    select: 'L.order_id, R.name AS customer, L.amount * 2 AS doubled',
  });
  assert.equal(byId.everyone.type, 'join');
  assert.equal((byId.everyone.config as { kind: string }).kind, 'full');
  assert.deepEqual(byId.matched.config, {
    kind: 'inner',
    leftKey: 'cid, product',
    rightKey: 'id, name',
    select: 'L.order_id, R.name',
  });
  assert.ok(edges.includes('orders->with_customer:left') && edges.includes('customers->with_customer:right'));
  assert.deepEqual(errors(job), []);
});

test('a view named `join` (a node id the exporter quotes) is read from like any view', () => {
  const { problems, edges } = imported(`
CREATE VIEW \`join\` AS
SELECT L.order_id AS order_id, R.name FROM orders AS L JOIN customers AS R ON L.cid = R.id;
CREATE VIEW big AS SELECT order_id, name FROM \`join\` WHERE order_id > 1;`);
  assert.deepEqual(problems, []);
  assert.ok(edges.includes('join->big'), edges.join(' '));
});

test('interval joins (comma and JOIN ... ON, either side first) and a window join', () => {
  const { job, problems, byId, edges } = imported(`
CREATE VIEW paid AS
SELECT L.order_id, R.name FROM orders AS L, customers AS R
WHERE L.cid = R.id AND L.rt BETWEEN R.rt - INTERVAL '10' SECOND AND R.rt + INTERVAL '2' SECOND;
CREATE VIEW mirrored AS
SELECT o.order_id, c.name FROM orders o JOIN customers c
ON o.cid = c.id AND c.rt BETWEEN o.rt AND o.rt + INTERVAL '1' MINUTE;
CREATE VIEW same_minute AS
SELECT L.window_start, L.window_end, L.order_id, R.name
FROM (SELECT * FROM TABLE(HOP(TABLE orders, DESCRIPTOR(rt), INTERVAL '30' SECOND, INTERVAL '1' MINUTE))) AS L
JOIN (SELECT * FROM TABLE(HOP(TABLE customers, DESCRIPTOR(rt), INTERVAL '30' SECOND, INTERVAL '1' MINUTE))) AS R
ON L.cid = R.id AND L.window_start = R.window_start AND L.window_end = R.window_end;`);
  assert.deepEqual(problems, []);
  assert.deepEqual(byId.paid.config, {
    leftKey: 'cid',
    rightKey: 'id',
    lower: '-10s',
    upper: '2s',
    select: 'L.order_id, R.name',
  });
  // c.rt BETWEEN o.rt AND o.rt + 1m is o.rt BETWEEN c.rt - 1m AND c.rt.
  assert.equal(byId.mirrored.type, 'join.interval');
  assert.deepEqual(
    [(byId.mirrored.config as { lower: string }).lower, (byId.mirrored.config as { upper: string }).upper],
    ['-1m', '0ms'],
  );
  assert.equal(byId.same_minute.type, 'join.window');
  // L.window_start: the window's bound, which Weir's window join names without a side.
  assert.equal((byId.same_minute.config as { select: string }).select, 'window_start, window_end, L.order_id, R.name');
  assert.deepEqual((byId.same_minute.config as { window: unknown }).window, {
    kind: 'sliding',
    size: '1m',
    slide: '30s',
  });
  assert.ok(edges.includes('orders->same_minute:left') && edges.includes('customers->same_minute:right'));
  assert.deepEqual(errors(job), []);
});

test("a join condition on one input filters that input first (an outer join's only on its optional side)", () => {
  const { job, problems } = imported(`
CREATE VIEW big_paid AS
SELECT L.order_id, R.name FROM orders AS L JOIN customers AS R ON L.cid = R.id WHERE L.amount > 10 AND (R.name = 'a' OR R.name = 'b');
CREATE VIEW kept AS
SELECT L.order_id, R.name FROM orders AS L LEFT JOIN customers AS R ON L.cid = R.id AND L.amount > 10;`);
  const byId = Object.fromEntries(job.nodes.map((n) => [n.id, n]));
  assert.deepEqual(byId.big_paid_left.config, { where: 'amount > 10' });
  assert.deepEqual(byId.big_paid_right.config, { where: "(name = 'a' OR name = 'b')" });
  const edges = job.edges.map((e) => `${e.from}->${e.to}${e.toPort ? `:${e.toPort}` : ''}`);
  assert.ok(edges.includes('big_paid_left->big_paid:left') && edges.includes('big_paid_right->big_paid:right'));
  // LEFT JOIN keeps every order: a condition on the orders in ON cannot filter them first.
  assert.ok(problems.some((p) => /'kept': join condition L\.amount > 10/.test(p.message) && p.severity === 'error'));
});

test('what these nodes cannot hold is reported with line and column, never dropped', () => {
  const { sql, problems } = imported(`
CREATE VIEW odd_join AS
SELECT L.order_id, R.name FROM orders AS L LEFT JOIN customers AS R ON L.cid = R.id AND L.amount > R.id;
CREATE VIEW three AS
SELECT a.order_id FROM orders a JOIN customers b ON a.cid = b.id JOIN customers c ON a.cid = c.id;
CREATE VIEW big_customers AS SELECT cid, SUM(amount) AS total FROM orders GROUP BY cid HAVING SUM(amount) > 100;
CREATE VIEW not_top AS
SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY cid ORDER BY ts) AS rownum FROM orders) WHERE rownum > 2;`);
  const find = (re: RegExp) => problems.find((p) => re.test(p.message));
  // A condition on both inputs of an outer join that is no key (an inner join's is a filter after
  // it, subqueries.test.ts; one on one input only filters that input: above).
  const cond = find(/join condition L\.amount > R\.id/);
  assert.deepEqual([cond?.line, cond?.column, cond?.severity], [...at(sql, 'L.amount > R.id'), 'error']);
  const three = find(/'three'.*more than two relations/);
  assert.deepEqual([three?.line, three?.severity], [at(sql, 'a JOIN customers b')[0], 'error']);
  const having = find(/'big_customers': HAVING/);
  assert.deepEqual([having?.line, having?.column], at(sql, 'HAVING'));
  const top = find(/'not_top': Top-N needs WHERE rownum <= N/);
  assert.equal(top?.line, at(sql, 'CREATE VIEW not_top')[0] + 1);
});

test('an imported join and aggregate run: the rows their SQL means', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'weir-import-rel-'));
  try {
    writeJsonl(dir, 'orders.jsonl', [
      { order_id: 1, cid: 1, amount: 3, ts: 1000 },
      { order_id: 2, cid: 1, amount: 9, ts: 2000 },
      { order_id: 3, cid: 2, amount: 20, ts: 3000 },
      { order_id: 4, cid: 3, amount: 1, ts: 4000 },
    ]);
    writeJsonl(dir, 'customers.jsonl', [
      { id: 1, name: 'ann', ts: 500 },
      { id: 2, name: 'bob', ts: 2500 },
    ]);
    const { job, problems } = importFlinkSql(
      `
CREATE TABLE orders (order_id BIGINT, cid BIGINT, amount DOUBLE, ts BIGINT, rt AS TO_TIMESTAMP_LTZ(ts, 3), WATERMARK FOR rt AS rt)
WITH ('connector' = 'filesystem', 'path' = 'file://${dir}/orders.jsonl', 'format' = 'json');
CREATE TABLE customers (id BIGINT, name STRING, ts BIGINT, rt AS TO_TIMESTAMP_LTZ(ts, 3), WATERMARK FOR rt AS rt)
WITH ('connector' = 'filesystem', 'path' = 'file://${dir}/customers.jsonl', 'format' = 'json');
CREATE TABLE joined (order_id BIGINT, name STRING)
WITH ('connector' = 'filesystem', 'path' = 'file://${dir}/joined', 'format' = 'json');
CREATE TABLE counts (cid BIGINT, n BIGINT, big BIGINT)
WITH ('connector' = 'filesystem', 'path' = 'file://${dir}/counts', 'format' = 'debezium-json');
INSERT INTO joined SELECT o.order_id, c.name FROM orders AS o JOIN customers AS c ON o.cid = c.id;
INSERT INTO counts SELECT cid, COUNT(*) AS n, COUNT(CASE WHEN amount > 5 THEN 1 END) AS big FROM orders GROUP BY cid;`,
      { baseDir: dir },
    );
    assert.deepEqual(problems, []);
    const run = await runJobInProcess(job, dir);
    assert.equal(run.result.status, 'finished', run.result.cause);
    const joined = (run.sinks.joined as Array<{ order_id: number; name: string }>).map(
      (r) => `${r.order_id}:${r.name}`,
    );
    assert.deepEqual(joined.sort(), ['1:ann', '2:ann', '3:bob'], 'order 4 has no customer: an inner join drops it');
    // debezium-json is a changelog: the last row per key is the aggregate's result.
    const last = new Map<number, unknown>();
    for (const c of run.sinks.counts as Array<{ op: string; data: { cid: number } }>)
      if (c.op === '+I' || c.op === '+U') last.set(c.data.cid, c.data);
    assert.deepEqual(
      [...last.values()],
      [
        { cid: 1, n: 2, big: 1 },
        { cid: 2, n: 1, big: 1 },
        { cid: 3, n: 1, big: 0 },
      ],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
