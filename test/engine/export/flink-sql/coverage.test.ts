/**
 * Every operator and function Weir's expressions support, in a job that Weir's own validator
 * accepts, exports to a script the Flink SQL grammar accepts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateJob } from '../../../../engine/graph/validate.ts';
import { exportFlinkSql } from '../../../../engine/export/flink-sql/index.ts';
import { describeSyntaxErrors, flinkSyntaxErrors } from './grammar.ts';
import { DATA_DIR } from './jobs.ts';

const WHERE = [
  'amount + 1 - 2 * 3 / 4 > 0',
  'amount % 2 <> 1',
  'MOD(CAST(amount AS INT), 2) = 0',
  'amount >= 1 AND amount <= 1000',
  "NOT (amount < 0) OR user = 'x'",
  "user LIKE 'a%'",
  "user NOT LIKE '%z'",
  "region IN ('eu', 'us')",
  "region NOT IN ('mars')",
  'amount BETWEEN 0 AND 1000',
  'amount NOT BETWEEN -5 AND -1',
  'region IS NOT NULL',
  'NOT user IS NULL',
  'CASE WHEN amount > 10 THEN TRUE ELSE FALSE END OR amount <= 10',
  '-amount < 1',
  "COALESCE(region, 'none') <> ''",
  'ABS(amount) >= 0',
  'ROUND(amount, 1) >= 0',
  'FLOOR(amount) <= CEIL(amount)',
  'CEILING(amount) >= 0',
  'UPPER(user) <> LOWER(user) OR TRUE',
  'user || region <> CONCAT(region, user) OR TRUE',
  "TRIM(user) <> ''",
]
  .map((c) => `(${c})`)
  .join(' AND ');

const SELECT = [
  'user',
  '`region` AS area',
  'amount * 2 AS doubled',
  'CAST(amount AS INT) AS whole',
  'UPPER(user) AS up',
  'LOWER(user) AS low',
  'SUBSTRING(user FROM 1 FOR 2) AS first2',
  'SUBSTRING(user, 2) AS rest',
  "CONCAT(user, '-', region) AS tag",
  "user || '!' AS shout",
  'ABS(amount - 20) AS dist',
  'ROUND(amount, 1) AS r',
  'FLOOR(amount) AS f',
  'CEIL(amount) AS c',
  "COALESCE(region, 'none') AS reg",
  "CASE WHEN amount > 20 THEN 'big' WHEN amount > 10 THEN 'mid' ELSE 'small' END AS size",
  'amount > 10 AS over10',
  'SQRT(ABS(amount)) AS root',
  'POWER(amount, 2) AS sq',
  "IF(amount > 10, 'y', 'n') AS yn",
  'ts',
].join(', ');

test('every supported operator and function exports to valid Flink SQL', () => {
  const doc = {
    format: 'weir.job/v1',
    name: 'expression coverage',
    settings: { checkpointing: { interval: '10s' } },
    nodes: [
      {
        id: 'orders',
        type: 'source.file',
        config: { path: 'orders.jsonl', format: 'jsonl', eventTime: { field: 'ts', maxOutOfOrderness: '1s' } },
      },
      { id: 'where', type: 'filter', config: { where: WHERE } },
      { id: 'select', type: 'map', config: { select: SELECT } },
      {
        id: 'agg',
        type: 'window',
        config: {
          keyBy: 'size, area',
          window: { kind: 'sliding', size: '1m', slide: '20s' },
          aggregates:
            'COUNT(*) AS n, COUNT(area) AS with_area, SUM(doubled) AS total, MIN(whole) AS lo, MAX(r) AS hi, AVG(whole) AS mean',
        },
      },
      { id: 'out', type: 'sink.file', config: { path: 'out/coverage', format: 'jsonl' } },
    ],
    edges: [
      { from: 'orders', to: 'where' },
      { from: 'where', to: 'select' },
      { from: 'select', to: 'agg' },
      { from: 'agg', to: 'out' },
    ],
  };
  const v = validateJob(doc, { baseDir: DATA_DIR });
  assert.ok(v.ok, JSON.stringify(!v.ok && v.problems));
  if (!v.ok) return;
  const { text, warnings } = exportFlinkSql(v.job);
  const errors = flinkSyntaxErrors(text);
  assert.deepEqual(errors, [], describeSyntaxErrors(text, errors));
  // The only warning: SUM over a DOUBLE, exact in Weir, arrival-ordered in Flink.
  assert.deepEqual(
    warnings.map((w) => w.path),
    ['nodes[3].config.aggregates'],
  );
  assert.match(text, /SUBSTRING\(`user`, 1, 2\) AS first2/);
  assert.match(text, /AVG\(whole\) AS mean/); // AVG of integers truncates in Weir as in Flink: no CAST
  assert.match(text, /POWER\(ABS\(amount\), 0\.5\) AS root/);
  assert.match(
    text,
    /CREATE TABLE `out` \(\n  window_start TIMESTAMP\(3\),\n  window_end TIMESTAMP\(3\),\n  `size` STRING,\n  area STRING,\n  n BIGINT,\n  with_area BIGINT,\n  total DOUBLE,\n  lo INT,\n  hi DOUBLE,\n  mean INT\n\)/,
  ); // AVG(INT) is an INT in Flink, truncating as Weir
});
