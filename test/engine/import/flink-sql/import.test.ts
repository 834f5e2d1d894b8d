/**
 * `importFlinkSql` on hand-written Flink SQL: what becomes which node, and every statement or
 * clause without a Weir node reported with its line and column (never dropped silently).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { validateJob } from '../../../../engine/graph/validate.ts';
import { importFlinkSql } from '../../../../engine/import/flink-sql/index.ts';
import { exportFlinkSql } from '../../../../engine/export/flink-sql/index.ts';
import { runJobInProcess } from '../../../support/harness/run-in-process.ts';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** 1-based line of the first line of `text` containing `needle`. */
function lineOf(text: string, needle: string): number {
  return text.split('\n').findIndex((l) => l.includes(needle)) + 1;
}

const SCRIPT = `SET 'parallelism.default' = '2';
SET 'execution.checkpointing.interval' = '5 s';
SET 'state.backend.type' = 'rocksdb';
SET 'table.exec.mini-batch.enabled' = 'true';

CREATE TABLE orders (
  user_id STRING,
  amount DOUBLE,
  ts BIGINT,
  rt AS TO_TIMESTAMP_LTZ(ts, 3),
  WATERMARK FOR rt AS rt - INTERVAL '2' SECOND
) WITH ('connector' = 'filesystem', 'path' = 'orders.jsonl', 'format' = 'json');

CREATE TABLE more_orders (
  user_id STRING,
  amount DOUBLE,
  ts BIGINT,
  rt AS TO_TIMESTAMP_LTZ(ts, 3),
  WATERMARK FOR rt AS rt - INTERVAL '2' SECOND
) WITH ('connector' = 'filesystem', 'path' = 'more.jsonl', 'format' = 'json');

CREATE TABLE totals (window_start TIMESTAMP(3), user_id STRING, total DOUBLE, n BIGINT)
WITH ('connector' = 'filesystem', 'path' = 'out/totals', 'format' = 'json');

CREATE TABLE big_ones (user_id STRING, amount DOUBLE) WITH ('connector' = 'print');

CREATE TABLE kinesis_in (a STRING) WITH ('connector' = 'kinesis', 'stream' = 't');

CREATE VIEW all_orders AS
SELECT user_id, amount, ts, rt FROM orders
UNION ALL
SELECT user_id, amount, ts, rt FROM more_orders;

CREATE VIEW per_user AS
SELECT window_start, user_id, SUM(amount) AS total, COUNT(*) AS n
FROM TABLE(TUMBLE(TABLE all_orders, DESCRIPTOR(rt), INTERVAL '10' SECOND))
GROUP BY window_start, window_end, user_id;

CREATE VIEW growing AS
SELECT window_start, COUNT(*) AS n
FROM TABLE(CUMULATE(TABLE all_orders, DESCRIPTOR(rt), INTERVAL '5' SECOND, INTERVAL '1' MINUTE))
GROUP BY window_start, window_end;

CREATE VIEW totals_by_user AS SELECT user_id, SUM(amount) AS s FROM orders GROUP BY user_id HAVING SUM(amount) > 10;

EXECUTE STATEMENT SET
BEGIN
  INSERT INTO totals SELECT window_start, user_id, total, n FROM per_user;
  INSERT INTO big_ones SELECT user_id, amount * 2 AS amount FROM all_orders WHERE amount > 100;
END;
`;

test('a hand-written script: tables, union, window TVF, statement set; the rest reported with line and column', () => {
  const { job, problems } = importFlinkSql(SCRIPT, { name: 'hand-written' });
  const byId = Object.fromEntries(job.nodes.map((n) => [n.id, n]));
  assert.equal(job.name, 'hand-written');
  assert.deepEqual(job.settings, { parallelism: 2, stateBackend: 'rocksdb', checkpointing: { interval: '5s' } });
  assert.deepEqual(
    byId.orders.config,
    {
      path: 'orders.jsonl',
      format: 'jsonl',
      eventTime: { field: 'ts', maxOutOfOrderness: '1999ms' },
      columns: { user_id: 'STRING', amount: 'DOUBLE', ts: 'BIGINT' },
    },
    "Flink's watermark is max - 2 s; Weir's is max - maxOutOfOrderness - 1 ms",
  );
  assert.equal(byId.all_orders.type, 'union');
  assert.deepEqual(byId.per_user.config, {
    keyBy: 'user_id',
    window: { kind: 'tumbling', size: '10s' },
    aggregates: 'SUM(amount) AS total, COUNT(*) AS n',
  });
  assert.equal(byId.totals.type, 'sink.file');
  assert.equal(byId.big_ones.type, 'sink.preview');
  // The INSERT with WHERE and a computed column: a filter and a map in front of the sink.
  assert.deepEqual(byId.big_ones_query_where.config, { where: 'amount > 100' });
  assert.deepEqual(byId.big_ones_query.config, { select: 'user_id, amount * 2 AS amount' });
  const edges = job.edges.map((e) => `${e.from}->${e.to}`).sort();
  assert.deepEqual(
    edges,
    [
      'all_orders->big_ones_query_where',
      'all_orders->per_user',
      'big_ones_query->big_ones',
      'big_ones_query_where->big_ones_query',
      'more_orders->all_orders',
      'orders->all_orders',
      'orders->totals_by_user',
      'per_user->totals_query',
      'totals_query->totals',
    ].sort(),
  );
  // The INSERT leaves window_end out (the sink has no such column): a map keeps the four it selects.
  assert.deepEqual(byId.totals_query.config, { select: 'window_start, user_id, total, n' });
  // GROUP BY without a window: an aggregate node (its HAVING is reported below).
  assert.deepEqual(byId.totals_by_user.config, { keyBy: 'user_id', aggregates: 'SUM(amount) AS s' });
  // Reported, with positions: the SET without a Weir setting, the kinesis table, CUMULATE, HAVING.
  const at = (re: RegExp) => problems.find((p) => re.test(p.message));
  assert.deepEqual(
    [at(/table\.exec\.mini-batch\.enabled/)?.line, at(/table\.exec\.mini-batch\.enabled/)?.column],
    [4, 1],
  );
  assert.deepEqual(
    [at(/connector 'kinesis'/)?.line, at(/connector 'kinesis'/)?.column],
    [lineOf(SCRIPT, 'CREATE TABLE kinesis_in'), 1],
  );
  assert.deepEqual(
    [at(/CUMULATE window has no Weir node/)?.line, at(/CUMULATE window has no Weir node/)?.column],
    [lineOf(SCRIPT, 'CUMULATE('), 12],
  );
  assert.deepEqual(
    [at(/HAVING has no Weir node/)?.line, at(/HAVING has no Weir node/)?.column],
    [lineOf(SCRIPT, 'HAVING'), SCRIPT.split('\n')[lineOf(SCRIPT, 'HAVING') - 1].indexOf('HAVING') + 1],
  );
  for (const p of problems) assert.ok(p.line >= 1 && p.column >= 1, JSON.stringify(p));
  // Laid out in layers; the designer opens it as is.
  assert.equal(byId.orders.position!.x, 0);
  assert.ok(byId.totals.position!.x > byId.per_user.position!.x);
  const v = validateJob(job);
  assert.ok(v.ok, JSON.stringify(!v.ok && v.problems));
});

test('group windows (SESSION, HOP) and a WHERE view become window and filter nodes', () => {
  const { job, problems } = importFlinkSql(`
CREATE TABLE clicks (u STRING, ts BIGINT, rt AS TO_TIMESTAMP_LTZ(ts, 3), WATERMARK FOR rt AS rt - INTERVAL '0.001' SECOND)
WITH ('connector' = 'filesystem', 'path' = 'c.jsonl', 'format' = 'json');
CREATE TABLE out1 (u STRING, n BIGINT) WITH ('connector' = 'filesystem', 'path' = 'o1', 'format' = 'csv');
CREATE TABLE out2 (n BIGINT) WITH ('connector' = 'filesystem', 'path' = 'o2', 'format' = 'json');
CREATE VIEW real_users AS SELECT u, ts, rt FROM clicks WHERE u <> 'bot';
CREATE VIEW sessions AS SELECT u, COUNT(*) AS n, SESSION_ROWTIME(rt, INTERVAL '30' SECOND) AS rt
FROM real_users GROUP BY SESSION(rt, INTERVAL '30' SECOND), u;
CREATE VIEW hops AS SELECT COUNT(*) AS n FROM real_users GROUP BY HOP(rt, INTERVAL '5' SECOND, INTERVAL '15' SECOND);
INSERT INTO out1 SELECT u, n FROM sessions;
INSERT INTO out2 SELECT n FROM hops;`);
  assert.deepEqual(problems, []);
  const byId = Object.fromEntries(job.nodes.map((n) => [n.id, n]));
  assert.deepEqual(
    (byId.clicks.config as { eventTime?: unknown }).eventTime,
    { field: 'ts' },
    'rt - 1 ms: maxOutOfOrderness 0',
  );
  assert.deepEqual(byId.real_users.config, { where: "u <> 'bot'" });
  assert.deepEqual(byId.sessions.config, {
    keyBy: 'u',
    window: { kind: 'session', gap: '30s' },
    aggregates: 'COUNT(*) AS n',
  });
  assert.deepEqual(byId.hops.config, {
    window: { kind: 'sliding', size: '15s', slide: '5s' },
    aggregates: 'COUNT(*) AS n',
  });
  assert.equal((byId.out1.config as { format: string }).format, 'csv');
});

test('syntax errors and joins without a Weir node are reported where they are', () => {
  const { problems } = importFlinkSql(`CREATE TABLE a (x INT) WITH ('connector' = 'datagen');
CREATE VIEW j AS SELECT a.x FROM a JOIN a AS b ON a.x > b.x;
CREATE VIEW broken AS SELEC x FROM a;`);
  assert.ok(
    problems.some((p) => p.line === 2 && p.severity === 'error' && /join/.test(p.message)),
    JSON.stringify(problems),
  );
  assert.ok(
    problems.some((p) => p.line === 3 && p.severity === 'error' && /syntax error/.test(p.message)),
    JSON.stringify(problems),
  );
});

test('an imported job runs: a hand-written script gives the rows its SQL means', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'weir-import-run-'));
  try {
    writeFileSync(
      join(dir, 'in.jsonl'),
      ['{"k":"a","v":10,"ts":1000}', '{"k":"a","v":7,"ts":2000}', '{"k":"b","v":1,"ts":3000}'].join('\n') + '\n',
    );
    const { job, problems } = importFlinkSql(
      `
SET 'execution.checkpointing.interval' = '1 s';
CREATE TABLE src (k STRING, v BIGINT, ts BIGINT, rt AS TO_TIMESTAMP_LTZ(ts, 3), WATERMARK FOR rt AS rt)
WITH ('connector' = 'filesystem', 'path' = 'file://${dir}/in.jsonl', 'format' = 'json');
CREATE TABLE dst (k STRING, half BIGINT) WITH ('connector' = 'filesystem', 'path' = 'file://${dir}/out', 'format' = 'json');
INSERT INTO dst SELECT k, v / 2 AS half FROM src WHERE v > 5;`,
      { baseDir: dir },
    );
    assert.deepEqual(problems, []);
    assert.equal(
      (job.nodes.find((n) => n.id === 'src')!.config as { path: string }).path,
      'in.jsonl',
      'file:// paths inside the job folder become relative',
    );
    const run = await runJobInProcess(job, dir);
    assert.equal(run.result.status, 'finished', run.result.cause);
    assert.deepEqual(
      run.sinks.dst,
      [
        { k: 'a', half: 5 },
        { k: 'a', half: 3 },
      ],
      'BIGINT / 2 truncates, as in Flink',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a blackhole table imports as sink.blackhole: the job runs to its end, discards every record, and exports back as blackhole', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'weir-import-blackhole-'));
  try {
    writeFileSync(join(dir, 'in.jsonl'), ['{"k":"a","v":10}', '{"k":"b","v":7}', '{"k":"c","v":1}'].join('\n') + '\n');
    const { job, problems } = importFlinkSql(
      `
CREATE TABLE src (k STRING, v BIGINT) WITH ('connector' = 'filesystem', 'path' = 'file://${dir}/in.jsonl', 'format' = 'json');
CREATE TABLE nowhere (k STRING, v BIGINT) WITH ('connector' = 'blackhole');
INSERT INTO nowhere SELECT k, v FROM src WHERE v > 5;`,
      { baseDir: dir },
    );
    assert.deepEqual(problems, [], 'a blackhole is no longer a preview sink with a warning');
    const sink = job.nodes.find((n) => n.id === 'nowhere')!;
    assert.deepEqual({ type: sink.type, config: sink.config }, { type: 'sink.blackhole', config: {} });
    const run = await runJobInProcess(job, dir);
    assert.equal(run.result.status, 'finished', run.result.cause);
    assert.equal(run.sinks.nowhere, undefined, 'nothing is written or previewed');
    const v = validateJob(job, { baseDir: dir });
    assert.ok(v.ok);
    assert.match(
      exportFlinkSql(v.job).text,
      /CREATE TABLE nowhere \([^)]*\) WITH \(\s*'connector' = 'blackhole'\s*\);/,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('weir import SCRIPT.sql -o JOB.weir.json: writes the job, lists problems as FILE:LINE:COLUMN', () => {
  const dir = mkdtempSync(join(tmpdir(), 'weir-import-cli-'));
  try {
    const script = join(dir, 'job.sql');
    writeFileSync(script, SCRIPT);
    const out = join(dir, 'job.weir.json');
    const r = spawnSync(process.execPath, [join(ROOT, 'bin/weir.mjs'), 'import', script, '-o', out], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(r.status, 2, 'errors: parts of the script have no Weir node');
    assert.match(
      r.stderr,
      new RegExp(
        `job\\.sql:${lineOf(SCRIPT, 'CREATE TABLE kinesis_in')}:1: error: table 'kinesis_in': connector 'kinesis' has no Weir source`,
      ),
    );
    assert.match(
      r.stderr,
      new RegExp(`job\\.sql:${lineOf(SCRIPT, 'CUMULATE(')}:12: error: 'growing': the CUMULATE window has no Weir node`),
    );
    const job = JSON.parse(readFileSync(out, 'utf8'));
    assert.equal(job.format, 'weir.job/v1');
    assert.equal(job.name, 'job');
    const none = spawnSync(process.execPath, [join(ROOT, 'bin/weir.mjs'), 'import', join(dir, 'missing.sql')], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(none.status, 2);
    assert.match(none.stderr, /cannot read .*missing\.sql/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
