/**
 * Shapes of hand-written Flink SQL (the Nexmark suite's) the importer reads without a Flink run:
 * computed source columns read as their expressions, INSERT by position under the sink's names,
 * FILTER (WHERE ...) aggregates grouped by a selected expression, a single table's alias,
 * PROCTIME() refused naming the view, and a physical watermarked TIMESTAMP column kept in the rows. test/flink-runner/nexmark-on-flink.ts compares the rows with
 * Flink's where Java is installed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { importFlinkSql } from '../../../../engine/import/flink-sql/index.ts';

const BID = `CREATE TABLE bid (auction BIGINT, bidder BIGINT, price BIGINT, ms BIGINT,
  \`dateTime\` AS TO_TIMESTAMP_LTZ(ms, 3), WATERMARK FOR \`dateTime\` AS \`dateTime\` - INTERVAL '4' SECOND)
WITH ('connector' = 'filesystem', 'path' = 'bid.jsonl', 'format' = 'json');`;

function configs(sql: string) {
  const { job, problems } = importFlinkSql(`${BID}\n${sql}`);
  return { byId: Object.fromEntries(job.nodes.map((n) => [n.id, n.config])), problems };
}

test('a computed column selected is its expression; INSERT writes by position under the sink names', () => {
  const { byId, problems } = configs(`CREATE TABLE out1 (bidder BIGINT, price BIGINT, t TIMESTAMP(3))
WITH ('connector' = 'filesystem', 'path' = 'o', 'format' = 'json');
INSERT INTO out1 SELECT B.price, B.bidder, B.\`dateTime\` FROM bid B WHERE B.price > 10;`);
  assert.deepEqual(problems, []);
  assert.deepEqual(byId.out1_query_where, { where: 'price > 10' });
  assert.deepEqual(byId.out1_query, { select: 'price, bidder, (TO_TIMESTAMP_LTZ(ms, 3)) AS `dateTime`' });
  assert.deepEqual(byId.out1_columns, { select: '`price` AS `bidder`, `bidder` AS `price`, `dateTime` AS `t`' });
});

test('FILTER (WHERE ...) aggregates grouped by a selected expression', () => {
  const { byId, problems } = configs(`CREATE TABLE out2 (d STRING, n BIGINT, cheap BIGINT)
WITH ('connector' = 'filesystem', 'path' = 'o', 'format' = 'debezium-json');
INSERT INTO out2 SELECT DATE_FORMAT(\`dateTime\`, 'yyyy-MM-dd') AS d, count(*) AS n,
  count(distinct bidder) filter (where price < 100) AS cheap
FROM bid GROUP BY DATE_FORMAT(\`dateTime\`, 'yyyy-MM-dd');`);
  assert.deepEqual(problems, []);
  assert.deepEqual(byId.out2_query_keys, { select: "*, DATE_FORMAT((TO_TIMESTAMP_LTZ(ms, 3)), 'yyyy-MM-dd') AS d" });
  assert.deepEqual(byId.out2_query, {
    keyBy: 'd',
    aggregates: 'count(*) AS n, count(distinct bidder) filter (where price < 100) AS cheap',
  });
});

test('PROCTIME() is refused naming the view and the item', () => {
  const { problems } = configs(`CREATE VIEW B AS SELECT *, PROCTIME() AS p FROM bid;`);
  assert.ok(
    problems.some(
      (p) =>
        p.severity === 'error' &&
        /^'B': PROCTIME\(\) AS p is processing time, which Weir has no equivalent of/.test(p.message),
    ),
    JSON.stringify(problems),
  );
});

test('a physical TIMESTAMP column with the WATERMARK is in the rows: a SELECT and a Top-N write it', () => {
  const { job, problems } = importFlinkSql(`CREATE TABLE bid (auction BIGINT, price BIGINT, \`dateTime\` TIMESTAMP(3),
  WATERMARK FOR \`dateTime\` AS \`dateTime\` - INTERVAL '4' SECOND)
WITH ('connector' = 'filesystem', 'path' = 'bid.jsonl', 'format' = 'json');
CREATE TABLE out3 (auction BIGINT, t TIMESTAMP(3)) WITH ('connector' = 'filesystem', 'path' = 'o', 'format' = 'json');
CREATE TABLE out4 (auction BIGINT, price BIGINT, t TIMESTAMP(3), r BIGINT)
WITH ('connector' = 'filesystem', 'path' = 'o4', 'format' = 'debezium-json');
INSERT INTO out3 SELECT auction, \`dateTime\` FROM bid;
INSERT INTO out4 SELECT * FROM
(SELECT *, ROW_NUMBER() OVER (PARTITION BY auction ORDER BY price DESC) AS r FROM bid) WHERE r <= 3;`);
  assert.deepEqual(
    problems.filter((p) => p.severity === 'error'),
    [],
  );
  const byId = Object.fromEntries(job.nodes.map((n) => [n.id, n.config]));
  assert.deepEqual((byId.bid as { eventTime?: unknown }).eventTime, { field: 'dateTime', maxOutOfOrderness: '3999ms' });
  assert.deepEqual(byId.out3_query, { select: 'auction, `dateTime`' });
});

test('a UNION ALL of tables whose watermarked TIMESTAMP columns are physical keeps the column in its rows', () => {
  const table = (name: string) => `CREATE TABLE ${name} (auction BIGINT, price BIGINT, \`dateTime\` TIMESTAMP(3),
  WATERMARK FOR \`dateTime\` AS \`dateTime\` - INTERVAL '4' SECOND)
WITH ('connector' = 'filesystem', 'path' = '${name}.jsonl', 'format' = 'json');`;
  const { job, problems } = importFlinkSql(`${table('b1')}\n${table('b2')}
CREATE TABLE out5 (auction BIGINT, t TIMESTAMP(3)) WITH ('connector' = 'filesystem', 'path' = 'o5', 'format' = 'json');
CREATE VIEW bids AS SELECT * FROM b1 UNION ALL SELECT * FROM b2;
INSERT INTO out5 SELECT auction, \`dateTime\` FROM bids;`);
  assert.deepEqual(
    problems.filter((p) => p.severity === 'error'),
    [],
  );
  const byId = Object.fromEntries(job.nodes.map((n) => [n.id, n.config]));
  assert.deepEqual(byId.out5_query, { select: 'auction, `dateTime`' });
});
