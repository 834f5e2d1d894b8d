/**
 * `importFlinkSql` on subqueries: a subquery in FROM or as a join input is an anonymous view (a
 * chain of nodes), its alias scoping the columns the outer query reads; GROUP BY and Top-N over a
 * join read the join as a subquery; an inner join's condition on both inputs filters the joined
 * rows. What the outer query reads that the subquery does not produce is an error where it is.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importFlinkSql } from '../../../../engine/import/flink-sql/index.ts';
import { runJobInProcess } from '../../../support/harness/run-in-process.ts';
import { at, importedScript, viewErrors, writeJsonl } from './views-support.ts';

const tables = (dir = '.') => `CREATE TABLE orders (
  order_id BIGINT, cid BIGINT, amount DOUBLE, product STRING, ts BIGINT,
  rt AS TO_TIMESTAMP_LTZ(ts, 3),
  WATERMARK FOR rt AS rt - INTERVAL '0.001' SECOND
) WITH ('connector' = 'filesystem', 'path' = 'file://${dir}/orders.jsonl', 'format' = 'json');
CREATE TABLE customers (
  id BIGINT, name STRING, since BIGINT, until BIGINT, ts BIGINT,
  rt AS TO_TIMESTAMP_LTZ(ts, 3),
  WATERMARK FOR rt AS rt - INTERVAL '0.001' SECOND
) WITH ('connector' = 'filesystem', 'path' = 'file://${dir}/customers.jsonl', 'format' = 'json');
`;

const imported = (views: string) => importedScript(tables() + views);
const errors = viewErrors;

test('nested subqueries in FROM: each one a node chain, the outer query reading the inner columns', () => {
  const { job, problems, byId, edges } = imported(`
CREATE VIEW big AS
SELECT q.cid, q.total FROM (
  SELECT t.cid, t.total FROM (SELECT cid, SUM(amount) AS total FROM orders GROUP BY cid) AS t WHERE t.total > 5
) AS q WHERE q.total < 100;`);
  assert.deepEqual(problems, []);
  assert.deepEqual(byId.big_q_t.config, { keyBy: 'cid', aggregates: 'SUM(amount) AS total' });
  assert.deepEqual(byId.big_q.config, { where: 'total > 5' });
  assert.deepEqual(byId.big.config, { where: 'total < 100' });
  assert.deepEqual(edges, ['orders->big_q_t', 'big_q_t->big_q', 'big_q->big']);
  assert.deepEqual(errors(job), []);
});

test('an alias scopes the subquery: it may shadow a table, and no later statement reads it', () => {
  const { sql, problems, byId } = imported(`
CREATE VIEW per_customer AS
SELECT orders.cid, orders.n FROM (SELECT cid, COUNT(*) AS n FROM orders GROUP BY cid) AS orders WHERE orders.n > 1;
CREATE VIEW later AS SELECT * FROM q2;
CREATE VIEW reads_q2 AS SELECT q2.n FROM (SELECT cid, COUNT(*) AS n FROM orders GROUP BY cid) q2;`);
  // `orders` in the outer query is the subquery (its n), not the table of that name.
  assert.deepEqual(byId.per_customer.config, { where: 'n > 1' });
  assert.equal(byId.per_customer_orders.type, 'aggregate');
  const leak = problems.find((p) => /'later' reads 'q2'/.test(p.message));
  assert.deepEqual([leak?.line, leak?.severity], [at(sql, 'CREATE VIEW later')[0], 'error']);
  assert.equal(problems.length, 1, JSON.stringify(problems));
});

test('a column the outer query reads that the subquery does not produce is an error at that column', () => {
  const { sql, problems } = imported(`
CREATE VIEW wrong AS
SELECT q.cid, q.amount FROM (SELECT cid, COUNT(*) AS n FROM orders GROUP BY cid) AS q;
CREATE VIEW wrong_bare AS
SELECT product FROM (SELECT cid, COUNT(*) AS n FROM orders GROUP BY cid) AS q;
CREATE VIEW wrong_join AS
SELECT w.cid, c.name FROM (
  SELECT cid, COUNT(*) AS n FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(rt), INTERVAL '1' MINUTE))
  GROUP BY cid, window_start, window_end
) AS w JOIN customers AS c ON w.customer = c.id;`);
  const qualified = problems.find((p) => /'wrong': q\.amount is not a column of the subquery q/.test(p.message));
  assert.deepEqual([qualified?.line, qualified?.column, qualified?.severity], [...at(sql, 'q.amount'), 'error']);
  assert.match(qualified!.message, /\(it produces cid, n\)/);
  const bare = problems.find((p) => /'wrong_bare': product is not a column of the subquery q/.test(p.message));
  assert.deepEqual([bare?.line, bare?.column], at(sql, 'product FROM'));
  const joined = problems.find((p) => /'wrong_join': w\.customer is not a column of the subquery w/.test(p.message));
  assert.deepEqual([joined?.line, joined?.column, joined?.severity], [...at(sql, 'w.customer'), 'error']);
});

test('a join input that is a subquery: its window, then the join; a window without aggregates drops its count', () => {
  const { job, problems, byId, edges } = imported(`
CREATE VIEW active AS
SELECT w.cid, c.name, w.starttime FROM (
  SELECT cid, window_start AS starttime, window_end AS endtime
  FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(rt), INTERVAL '1' MINUTE))
  GROUP BY cid, window_start, window_end
) AS w JOIN customers AS c ON w.cid = c.id;`);
  assert.deepEqual(problems, []);
  assert.deepEqual(byId.active_w.config, {
    keyBy: 'cid',
    window: { kind: 'tumbling', size: '1m' },
    aggregates: 'COUNT(*) AS window_rows__',
  });
  assert.deepEqual(byId.active_w_columns.config, {
    select: '`cid`, `window_start` AS `starttime`, `window_end` AS `endtime`',
  });
  assert.deepEqual(byId.active.config, {
    kind: 'inner',
    leftKey: 'cid',
    rightKey: 'id',
    select: 'L.cid, R.name, L.starttime',
  });
  assert.ok(edges.includes('active_w_columns->active:left') && edges.includes('customers->active:right'));
  assert.deepEqual(errors(job), []);
});

test("a bound on a window's end (renamed) is an interval join: window_end is the window's event time + 1 ms", () => {
  const { sql, job, problems, byId } = imported(`
CREATE VIEW top_orders AS
SELECT o.order_id, o.amount FROM orders o JOIN (
  SELECT MAX(amount) AS top, window_end AS closed FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(rt), INTERVAL '10' SECOND))
  GROUP BY window_start, window_end
) m ON o.amount = m.top WHERE o.rt BETWEEN m.closed - INTERVAL '10' SECOND AND m.closed;`);
  // Flink runs it as a regular join (a window end is no time attribute there): the one difference,
  // rows behind the watermark, is a warning where the bound is.
  assert.equal(problems.length, 1, JSON.stringify(problems));
  assert.deepEqual(
    [problems[0].line, problems[0].column, problems[0].severity],
    [...at(sql, 'o.rt BETWEEN'), 'warning'],
  );
  assert.match(
    problems[0].message,
    /Flink joins with a regular join, which keeps rows that arrive behind the watermark/,
  );
  assert.equal(byId.top_orders.type, 'join.interval');
  assert.deepEqual(
    [(byId.top_orders.config as { lower: string }).lower, (byId.top_orders.config as { upper: string }).upper],
    ['-9999ms', '1ms'],
  );
  assert.deepEqual(errors(job), []);
});

test('Top-N over a join: the join (a filter for its condition on both inputs), then topn, then the select', () => {
  const { job, problems, byId, edges } = imported(`
CREATE VIEW best AS
SELECT cid, name, amount FROM (
  SELECT C.*, O.cid, O.amount, ROW_NUMBER() OVER (PARTITION BY C.id ORDER BY O.amount DESC) AS rownum
  FROM customers C, orders O
  WHERE C.id = O.cid AND O.ts BETWEEN C.since AND C.until
) WHERE rownum <= 1;`);
  assert.deepEqual(problems, []);
  assert.equal(byId.best_subquery.type, 'join');
  assert.deepEqual(byId.best_subquery_matched.config, { where: '`R__ts` BETWEEN `since` AND `until`' });
  assert.deepEqual(byId.best.config, { partitionBy: 'id', orderBy: 'amount DESC', limit: 1 });
  assert.deepEqual(byId.best_select.config, { select: 'cid, name, amount' });
  // The map after the filter drops O.ts, which only the condition read.
  assert.deepEqual(edges.slice(-4), [
    'best_subquery->best_subquery_matched',
    'best_subquery_matched->best_subquery_select',
    'best_subquery_select->best',
    'best->best_select',
  ]);
  assert.deepEqual(errors(job), []);
});

test('GROUP BY over a join with a condition on both inputs runs: the rows the SQL means', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'weir-import-subq-'));
  try {
    writeJsonl(dir, 'orders.jsonl', [
      { order_id: 1, cid: 1, amount: 3, ts: 1000 },
      { order_id: 2, cid: 1, amount: 9, ts: 2000 },
      { order_id: 3, cid: 2, amount: 20, ts: 3000 },
      { order_id: 4, cid: 2, amount: 50, ts: 9000 },
    ]);
    writeJsonl(dir, 'customers.jsonl', [
      { id: 1, name: 'ann', since: 0, until: 5000, ts: 500 },
      { id: 2, name: 'bob', since: 0, until: 5000, ts: 600 },
    ]);
    const { job, problems } = importFlinkSql(
      `${tables(dir)}
CREATE TABLE best (name STRING, top DOUBLE) WITH ('connector' = 'filesystem', 'path' = 'file://${dir}/best', 'format' = 'debezium-json');
INSERT INTO best
SELECT Q.name, MAX(Q.amount) FROM (
  SELECT C.name, O.amount FROM customers C, orders O WHERE C.id = O.cid AND O.ts BETWEEN C.since AND C.until
) Q GROUP BY Q.name;`,
      { baseDir: dir },
    );
    assert.deepEqual(problems, []);
    const run = await runJobInProcess(job, dir);
    assert.equal(run.result.status, 'finished', run.result.cause);
    const last = new Map<string, unknown>();
    for (const c of run.sinks.best as Array<{ op: string; data: { name: string } }>)
      if (c.op === '+I' || c.op === '+U') last.set(c.data.name, c.data);
    // bob's order at 9000 is after his `until`: the condition on both inputs left it out.
    assert.deepEqual(
      [...last.values()],
      [
        { name: 'ann', top: 9 },
        { name: 'bob', top: 20 },
      ],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('GROUP BY over a join reading bare columns: the join writes them, the aggregate groups them', () => {
  const { job, problems, byId, edges } = imported(`
CREATE VIEW top_per_name AS
SELECT name, MAX(amount) AS top FROM orders O JOIN customers C ON O.cid = C.id GROUP BY name;`);
  assert.deepEqual(problems, []);
  assert.deepEqual(byId.top_per_name_subquery.config, {
    kind: 'inner',
    leftKey: 'cid',
    rightKey: 'id',
    select: 'R.name, L.amount',
  });
  assert.deepEqual(byId.top_per_name.config, { keyBy: 'name', aggregates: 'MAX(amount) AS top' });
  assert.ok(edges.includes('top_per_name_subquery->top_per_name'));
  assert.deepEqual(errors(job), []);
});

test("a subquery's window_time is its event time, kept beside the row: the outer query may read it", () => {
  const { problems, byId } = imported(`
CREATE VIEW per_minute AS
SELECT w.cid, w.n, w.window_time FROM (
  SELECT cid, COUNT(*) AS n, window_start, window_end, window_time
  FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(rt), INTERVAL '1' MINUTE))
  GROUP BY cid, window_start, window_end, window_time
) AS w;`);
  assert.deepEqual(problems, []);
  assert.deepEqual(byId.per_minute.config, { select: 'cid, n' });
});
