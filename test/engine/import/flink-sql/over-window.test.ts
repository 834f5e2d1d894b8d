/**
 * Issue 26: `weir import` on a script with an OVER aggregation says so in one line, without the
 * grammar's console output, and writes nothing; CAST(NULL AS TIMESTAMP(3)) imports.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importFlinkSql } from '../../../../engine/import/flink-sql/index.ts';

const ROOT = join(import.meta.dirname, '../../../..');
const TABLES = `CREATE TABLE orders (customer STRING, amount DOUBLE, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '5' SECOND) WITH ('connector' = 'filesystem', 'path' = 'file:///tmp/orders.jsonl', 'format' = 'json');
CREATE TABLE big (customer STRING, total DOUBLE, t TIMESTAMP(3)) WITH ('connector' = 'filesystem', 'path' = 'file:///tmp/out', 'format' = 'json');
`;

test('an OVER aggregation is one error line, with no grammar noise, and nothing is written', () => {
  const dir = mkdtempSync(join(tmpdir(), 'weir-import-over-'));
  try {
    const script = join(dir, 'over.sql');
    writeFileSync(
      script,
      `${TABLES}INSERT INTO big SELECT customer, SUM(amount) OVER (PARTITION BY customer ORDER BY ts ROWS BETWEEN 2 PRECEDING AND CURRENT ROW), CAST(NULL AS TIMESTAMP(3)) FROM orders;\n`,
    );
    const out = join(dir, 'over.weir.json');
    const r = spawnSync(process.execPath, [join(ROOT, 'bin/weir.mjs'), 'import', script, '-o', out], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(r.status, 2);
    assert.equal(r.stdout, '');
    assert.deepEqual(r.stderr.trim().split('\n'), [
      `${script}:3:46: error: OVER aggregations have no Weir node (this statement was left out): use a window node (tumbling, sliding, session) or an aggregate`,
      'weir import: nothing written: 1 statement could not be read (above)',
    ]);
    assert.equal(existsSync(out), false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an OVER aggregation the grammar reads (aliased) is the same one error, its statement left out', () => {
  const r = importFlinkSql(
    `${TABLES}INSERT INTO big SELECT customer, SUM(amount) OVER (PARTITION BY customer ORDER BY ts ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS total, CAST(NULL AS TIMESTAMP(3)) AS t FROM orders;\n`,
    { baseDir: '/tmp' },
  );
  assert.deepEqual(
    r.problems.map((p) => `${p.line}:${p.column}: ${p.severity}: ${p.message}`),
    // At the aggregation the OVER applies to (the grammar's OVER item starts there).
    [
      '3:34: error: OVER aggregations have no Weir node (this statement was left out): use a window node (tumbling, sliding, session) or an aggregate',
    ],
  );
  assert.equal(r.job.nodes.filter((n) => n.type === 'map').length, 0, 'no map with an OVER that Weir refuses');
});

test('CAST(NULL AS TIMESTAMP(3)) imports without a problem', () => {
  const r = importFlinkSql(
    `${TABLES}INSERT INTO big SELECT customer, amount AS total, CAST(NULL AS TIMESTAMP(3)) AS t FROM orders;\n`,
    {
      baseDir: '/tmp',
    },
  );
  assert.deepEqual(r.problems, []);
  const map = r.job.nodes.find((n) => n.type === 'map');
  assert.match(JSON.stringify(map?.config), /CAST\(NULL AS TIMESTAMP\(3\)\)/);
});
