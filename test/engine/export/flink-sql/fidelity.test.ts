/**
 * The export runs on Flink as Weir runs (issue 12): version-specific keys, absolute or prefixed
 * paths, row-format sinks that roll every checkpoint, bad event times skipped (or failing the job)
 * without a NULL rowtime, sample inference that one bad value cannot flip, per-advance watermarks,
 * and Flink's result types for integer division, DECIMAL and AVG.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exportFlinkSql } from '../../../../engine/export/flink-sql/index.ts';
import { describeSyntaxErrors, flinkSyntaxErrors } from './grammar.ts';
import { job, ordersPerUser } from './jobs.ts';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

function valid(text: string): string {
  const errors = flinkSyntaxErrors(text);
  assert.deepEqual(errors, [], describeSyntaxErrors(text, errors));
  return text;
}

test('--flink-version: 1.19 gets the state.* checkpoint keys, 1.20 and 2.x the execution.checkpointing.* ones', () => {
  const v119 = valid(exportFlinkSql(job(ordersPerUser), { flinkVersion: '1.19' }).text);
  assert.match(v119, /for Flink 1\.19:/);
  assert.match(v119, /SET 'state\.checkpoint-storage' = 'filesystem';/);
  assert.match(v119, /SET 'state\.checkpoints\.dir' = 'file:\/\/\//);
  assert.match(v119, /SET 'state\.checkpoints\.num-retained' = '1';/);
  assert.match(v119, /SET 'state\.backend\.incremental' = 'false';/);
  assert.doesNotMatch(v119, /execution\.checkpointing\.(dir|storage|num-retained|incremental)/);
  for (const v of ['1.20', '2.x'] as const) {
    const text = valid(exportFlinkSql(job(ordersPerUser), { flinkVersion: v }).text);
    assert.match(text, new RegExp(`for Flink ${v.replace('.', '\\.')}:`));
    assert.match(text, /SET 'execution\.checkpointing\.dir' = 'file:\/\/\//);
    assert.doesNotMatch(text, /state\.checkpoints\.dir/);
  }
  assert.match(
    exportFlinkSql(job(ordersPerUser)).text,
    /--flink-version 2\.x` for Flink 2\.x/,
    'the newest by default',
  );
});

test('paths are absolute file:/// URIs, or under --path-prefix', () => {
  const plain = exportFlinkSql(job(ordersPerUser)).text;
  assert.match(plain, /'path' = 'file:\/\/\/[^']*\/data\/orders\.jsonl'/);
  assert.match(plain, /'path' = 'file:\/\/\/[^']*\/data\/out\/per_user'/);
  const s3 = valid(exportFlinkSql(job(ordersPerUser), { pathPrefix: 's3://bucket/weir' }).text);
  assert.match(s3, /'path' = 's3:\/\/bucket\/weir\/orders\.jsonl'/);
  assert.match(s3, /'path' = 's3:\/\/bucket\/weir\/out\/per_user'/);
  assert.match(s3, /SET 'execution\.checkpointing\.dir' = 's3:\/\/bucket\/weir\/checkpoints';/);
  assert.match(s3, /under s3:\/\/bucket\/weir/);
});

test('row-format file sinks roll every checkpoint interval, so files commit on checkpoints', () => {
  const text = exportFlinkSql(job(ordersPerUser)).text;
  assert.match(
    text,
    /'sink\.rolling-policy\.rollover-interval' = '1 s',\n  'sink\.rolling-policy\.check-interval' = '1 s'/,
  );
  const off = exportFlinkSql(
    job({ ...ordersPerUser, settings: { ...ordersPerUser.settings, checkpointing: { interval: undefined } } }),
  );
  assert.doesNotMatch(off.text, /rolling-policy/);
  assert.ok(off.warnings.some((w) => /checkpointing is off/.test(w.message)));
});

test('watermarks are emitted on every advance (pipeline.auto-watermark-interval 0), as Weir judges lateness per record', () => {
  assert.match(exportFlinkSql(job(ordersPerUser)).text, /SET 'pipeline\.auto-watermark-interval' = '0 ms';/);
});

function withData(
  lines: string[],
  format: 'jsonl' | 'csv',
  onBadRecord: 'skip' | 'fail',
  f: (text: string, warnings: string[]) => void,
): void {
  const dir = mkdtempSync(join(tmpdir(), 'weir-fidelity-'));
  try {
    writeFileSync(join(dir, `in.${format}`), lines.join('\n') + '\n');
    const out = exportFlinkSql(
      job(
        {
          name: 'bad-times',
          settings: { checkpointing: { interval: '1s' } },
          nodes: [
            {
              id: 'src',
              type: 'source.file',
              config: {
                path: `in.${format}`,
                format,
                onBadRecord,
                eventTime: { field: 'ts', maxOutOfOrderness: '1s' },
              },
            },
            {
              id: 'w',
              type: 'window',
              config: {
                keyBy: 'k',
                window: { kind: 'tumbling', size: '10s' },
                aggregates: 'COUNT(*) AS n, AVG(amount) AS mean',
              },
            },
            { id: 'out', type: 'sink.file', config: { path: 'out', format: 'jsonl' } },
          ],
          edges: [
            { from: 'src', to: 'w' },
            { from: 'w', to: 'out' },
          ],
        },
        dir,
      ),
    );
    f(
      valid(out.text),
      out.warnings.map((w) => `${w.path}: ${w.message}`),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('a bad event time is skipped as in Weir: never a NULL rowtime, and the view drops the record', () => {
  withData(
    [
      '{"k":"a","amount":5,"ts":1000}',
      '{"k":"a","amount":7,"ts":"soon"}',
      '{"k":"a","amount":2}',
      '{"k":"b","amount":1,"ts":3000}',
    ],
    'jsonl',
    'skip',
    (text, warnings) => {
      // One malformed sample ('soon') does not turn ts into STRING: most values are BIGINT.
      assert.match(text, /  ts BIGINT,/);
      assert.match(text, /  amount BIGINT,/);
      assert.ok(
        warnings.some((w) =>
          /column 'ts' is typed BIGINT by most sampled values; 1 other value \(first: "soon" on line 2\)/.test(w),
        ),
        warnings.join('\n'),
      );
      assert.match(
        text,
        /rowtime AS CASE WHEN ts IS NOT NULL THEN TO_TIMESTAMP_LTZ\(ts, 3\) ELSE TO_TIMESTAMP_LTZ\(0, 3\) END/,
      );
      assert.match(
        text,
        /CREATE VIEW src AS\nSELECT k, amount, ts, rowtime\nFROM src__raw\nWHERE COALESCE\(ts IS NOT NULL, FALSE\);/,
      );
      // AVG of a BIGINT is a BIGINT in Flink, truncating, as in Weir now: no CAST to DOUBLE.
      assert.match(text, /AVG\(amount\) AS mean/);
      assert.match(text, /  mean BIGINT\n/);
    },
  );
});

test("onBadRecord 'fail': a bad event time fails the Flink job with a message naming the field and value", () => {
  withData(['{"k":"a","amount":5,"ts":1000}'], 'jsonl', 'fail', (text) => {
    assert.match(
      text,
      /ELSE TO_TIMESTAMP_LTZ\(CAST\(CONCAT\('bad event time in field ts: ', COALESCE\(CAST\(ts AS STRING\), 'missing'\)\) AS BIGINT\), 3\) END/,
    );
    assert.match(text, /'json\.ignore-parse-errors' = 'false'/);
    assert.doesNotMatch(text, /src__raw/, 'no filtering view: bad records fail instead');
  });
  withData(['k,amount,ts', 'a,5,2026-01-01T00:00:01Z'], 'csv', 'fail', (text) => {
    // The CSV header line maps to epoch 0 (it is not a record in Weir), other bad times fail.
    assert.match(
      text,
      /WHEN COALESCE\(k = 'k', FALSE\) AND amount IS NULL AND COALESCE\(ts = 'ts', FALSE\) THEN TO_TIMESTAMP_LTZ\(0, 3\) ELSE TO_TIMESTAMP_LTZ\(CAST\(CONCAT/,
    );
    assert.match(text, /WHERE NOT \(COALESCE\(k = 'k', FALSE\)/);
  });
});

test('ISO-8601 text event time: REGEXP guards the casts, so a malformed value is skipped instead of failing the cast', () => {
  withData(
    ['k,amount,ts', 'a,5,2026-01-01T00:00:01.000Z', 'a,6,yesterday', 'b,7,2026-01-01T00:00:02Z'],
    'csv',
    'skip',
    (text) => {
      assert.match(text, /  ts STRING,/);
      assert.match(
        text,
        /rowtime AS CASE WHEN \(REGEXP\(ts, '\^-\?\[0-9\]\{1,18\}\$'\) OR REGEXP\(ts, '\^\[0-9\]\{4\}-/,
      );
      assert.match(text, /AND COALESCE\(\(REGEXP\(ts,/);
    },
  );
});

test('integer division, DECIMAL and AVG get the types Flink gives them in the sink', () => {
  const text = valid(
    exportFlinkSql(
      job({
        name: 'types',
        settings: { checkpointing: { interval: '1s' } },
        nodes: [
          {
            id: 'src',
            type: 'source.file',
            config: {
              path: 'x.jsonl',
              format: 'jsonl',
              columns: { amount: 'BIGINT', price: 'DECIMAL(10, 2)', ts: 'BIGINT' },
              eventTime: { field: 'ts' },
            },
          },
          {
            id: 'm',
            type: 'map',
            config: { select: 'amount / 3 AS third, ROUND(amount * 1.005, 2) AS r, price * 2 AS p2, ts' },
          },
          {
            id: 'w',
            type: 'window',
            config: {
              window: { kind: 'tumbling', size: '1s' },
              aggregates: 'SUM(p2) AS s, AVG(p2) AS a, AVG(third) AS t',
            },
          },
          { id: 'out', type: 'sink.file', config: { path: 'out', format: 'jsonl' } },
        ],
        edges: [
          { from: 'src', to: 'm' },
          { from: 'm', to: 'w' },
          { from: 'w', to: 'out' },
        ],
      }),
    ).text,
  );
  assert.match(text, /  s DECIMAL\(38, 2\),\n  a DECIMAL\(38, 6\),\n  t BIGINT\n/);
});

test('weir export --flink-version and --path-prefix on the command line; bad values are refused clearly', () => {
  const run = (...args: string[]) =>
    spawnSync(
      process.execPath,
      [
        join(ROOT, 'bin/weir.mjs'),
        'export',
        join(ROOT, 'examples/orders-per-user/job.weir.json'),
        '--format',
        'flink-sql',
        ...args,
      ],
      { encoding: 'utf8', timeout: 60_000 },
    );
  const ok = run('--flink-version', '1.19', '--path-prefix', 's3://bucket/weir/');
  assert.equal(ok.status, 0, ok.stderr);
  assert.match(ok.stdout, /for Flink 1\.19:/);
  assert.match(ok.stdout, /SET 'state\.checkpoints\.dir' = 's3:\/\/bucket\/weir\//);
  const bad = run('--flink-version', '1.18');
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /unknown --flink-version '1\.18' \(allowed: 1\.19, 1\.20, 2\.x\)/);
});
