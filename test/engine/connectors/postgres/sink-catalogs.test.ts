/**
 * `sink.postgres` columns checked against the real table before the run (Flink's INSERT INTO
 * rules): one case per class of problem, read from a throwaway PostgreSQL and validated as
 * `weir validate` and `weir run` validate (engine/connectors/postgres/sink-catalogs.ts feeding
 * engine/graph/check-sink-tables.ts), plus the CLI's output and exit code.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server, type Socket } from 'node:net';
import { startPgCluster, type PgCluster } from '../../../support/postgres-cluster.ts';
import { runWeir, tempDir, writeJob } from '../../../support/run-helpers.ts';
import { readSinkCatalogs } from '../../../../engine/connectors/postgres/sink-catalogs.ts';
import { validateJob } from '../../../../engine/graph/validate.ts';
import type { JobProblem } from '../../../../engine/graph/types.ts';

let pg: PgCluster;
before(async () => {
  pg = await startPgCluster();
  await pg.query(`CREATE TABLE wide (seq numeric(20, 0), key text, value bigint, ts double precision)`);
  await pg.query(`CREATE TABLE bounds (key text, window_start text, window_end timestamp(3), n bigint)`);
  await pg.query(`CREATE TABLE bounds_ltz (key text, window_start timestamptz, window_end timestamp(3), n bigint)`);
  await pg.query(`CREATE TABLE int_key (seq bigint, key integer, value bigint, ts bigint)`);
  await pg.query(`CREATE TABLE narrow (seq bigint, key text, value bigint)`);
  await pg.query(`CREATE TABLE strict (seq bigint NOT NULL, key text NOT NULL, value bigint, ts bigint)`);
  await pg.query(`CREATE TABLE no_pk (key text, window_start timestamp(3), window_end timestamp(3), n bigint)`);
});
after(async () => {
  await pg?.stop();
});

/** gen -> sink.postgres into `table` (append). */
function appendJob(url: string, table: string) {
  return {
    format: 'weir.job/v1',
    name: 'catalog',
    nodes: [
      { id: 'gen', type: 'source.generator', config: { count: 10 } },
      { id: 'pg', type: 'sink.postgres', config: { url, table, mode: 'append' } },
    ],
    edges: [{ from: 'gen', to: 'pg' }],
  };
}

/** gen -> window per key (window_start/window_end TIMESTAMP(3) NOT NULL, n BIGINT NOT NULL) -> sink. */
function windowJob(url: string, table: string, mode: 'append' | 'upsert' = 'append') {
  return {
    format: 'weir.job/v1',
    name: 'catalog-window',
    nodes: [
      {
        id: 'gen',
        type: 'source.generator',
        config: { count: 10, eventTime: { field: 'ts', maxOutOfOrderness: '1s' } },
      },
      {
        id: 'w',
        type: 'window',
        config: { keyBy: 'key', window: { kind: 'tumbling', size: '1s' }, aggregates: 'COUNT(*) AS n' },
      },
      {
        id: 'pg',
        type: 'sink.postgres',
        config: { url, table, mode, ...(mode === 'upsert' ? { key: 'key, window_start' } : {}) },
      },
    ],
    edges: [
      { from: 'gen', to: 'w' },
      { from: 'w', to: 'pg' },
    ],
  };
}

async function check(job: unknown, timeoutMs?: number): Promise<{ ok: boolean; problems: JobProblem[] }> {
  const sinkCatalogs = await readSinkCatalogs(job, { timeoutMs });
  return validateJob(job, { sinkCatalogs });
}

const lines = (ps: JobProblem[], severity: 'error' | 'warning') =>
  ps.filter((p) => (p.severity ?? 'error') === severity).map((p) => `${p.path}: ${p.message}`);

describe('sink.postgres columns against the table, before the run', () => {
  test('widening casts Flink allows are accepted: BIGINT into numeric, BIGINT into double', async () => {
    const r = await check(appendJob(pg.url, 'public.wide'));
    assert.deepEqual(lines(r.problems, 'error'), []);
    assert.equal(r.ok, true);
  });

  test('a missing table is an error at the table field', async () => {
    const r = await check(appendJob(pg.url, 'public.nope'));
    assert.equal(r.ok, false);
    assert.deepEqual(lines(r.problems, 'error'), [
      'nodes[1].config.table: table public.nope does not exist (create it first: Weir writes into an existing table)',
    ]);
  });

  test('a column the table lacks is an error naming it and the columns there are', async () => {
    const r = await check(appendJob(pg.url, 'public.narrow'));
    assert.equal(r.ok, false);
    assert.deepEqual(lines(r.problems, 'error'), [
      "nodes[1].config.table: table public.narrow has no column 'ts' (it has seq, key, value)",
    ]);
  });

  test('STRING into an integer column is refused, as Flink refuses it', async () => {
    const r = await check(appendJob(pg.url, 'public.int_key'));
    assert.equal(r.ok, false);
    assert.deepEqual(lines(r.problems, 'error'), [
      "nodes[1].config.table: column 'key' is integer (INT) in PostgreSQL but the input gives STRING, which Flink " +
        "does not cast to INT implicitly (change the column's type, or CAST the value before the sink)",
    ]);
  });

  test('TIMESTAMP(3) into a text column is refused (Flink maps text to STRING)', async () => {
    const r = await check(windowJob(pg.url, 'public.bounds'));
    assert.equal(r.ok, false);
    assert.deepEqual(lines(r.problems, 'error'), [
      "nodes[2].config.table: column 'window_start' is text (STRING) in PostgreSQL but the input gives " +
        "TIMESTAMP(3) NOT NULL, which Flink does not cast to STRING implicitly (change the column's type, or " +
        'CAST the value before the sink)',
    ]);
  });

  test('TIMESTAMP(3) into timestamptz (TIMESTAMP_LTZ) and timestamp(3) is accepted', async () => {
    const r = await check(windowJob(pg.url, 'public.bounds_ltz'));
    assert.deepEqual(lines(r.problems, 'error'), []);
    assert.equal(r.ok, true);
  });

  test('an upsert key that is no unique constraint of the table is an error at the key', async () => {
    const r = await check(windowJob(pg.url, 'public.no_pk', 'upsert'));
    assert.equal(r.ok, false);
    assert.deepEqual(lines(r.problems, 'error'), [
      'nodes[2].config.key: (key, window_start) is not a primary key or unique constraint of public.no_pk; ' +
        'upsert needs one (ALTER TABLE public.no_pk ADD PRIMARY KEY (key, window_start))',
    ]);
  });

  test('a nullable input into NOT NULL columns is a warning, not an error (Flink enforces it at run time)', async () => {
    const r = await check(appendJob(pg.url, 'public.strict'));
    assert.equal(r.ok, true);
    assert.deepEqual(lines(r.problems, 'warning'), [
      "nodes[1].config.table: columns 'seq', 'key' of public.strict are NOT NULL but the input may give NULL " +
        "there: the run fails on the first NULL written (as Flink's table.exec.sink.not-null-enforcer = ERROR does)",
    ]);
  });

  test('a server that refuses connections is a warning at the URL; validation still passes', async () => {
    const closed = await closedPort();
    const r = await check(appendJob(`postgresql://postgres@127.0.0.1:${closed}/postgres`, 'public.wide'));
    assert.equal(r.ok, true);
    const warnings = lines(r.problems, 'warning');
    assert.equal(warnings.length, 1, warnings.join('\n'));
    assert.match(
      warnings[0],
      new RegExp(
        `^nodes\\[1\\]\\.config\\.url: table not checked: cannot connect to 127\\.0\\.0\\.1:${closed}/postgres as postgres .*; the run checks the table when it starts$`,
      ),
    );
  });

  test('a server that accepts and never answers does not hang validation', async () => {
    const silent = await silentServer();
    try {
      const started = Date.now();
      const r = await check(appendJob(`postgresql://postgres@127.0.0.1:${silent.port}/postgres`, 'public.wide'), 500);
      assert.ok(Date.now() - started < 5000, `took ${Date.now() - started} ms`);
      assert.equal(r.ok, true);
      assert.match(
        lines(r.problems, 'warning').join('\n'),
        /^nodes\[1\]\.config\.url: table not checked: cannot connect/,
      );
    } finally {
      await silent.close();
    }
  });

  test('a password variable that is not set is a warning at passwordEnv', async () => {
    const job = appendJob(pg.url, 'public.wide');
    (job.nodes[1].config as Record<string, unknown>).passwordEnv = 'WEIR_TEST_UNSET_PASSWORD_9431';
    const r = await check(job);
    assert.equal(r.ok, true);
    assert.deepEqual(lines(r.problems, 'warning'), [
      'nodes[1].config.passwordEnv: table not checked before the run: the environment variable ' +
        'WEIR_TEST_UNSET_PASSWORD_9431 is not set (it should hold the database password); the run checks the table when it starts',
    ]);
  });

  test('weir validate prints the path and message and exits 2; weir run refuses before starting', async () => {
    const { dir, cleanup } = tempDir('pg-catalog-cli');
    try {
      const file = writeJob(dir, windowJob(pg.url, 'public.bounds'));
      const v = await runWeir(['validate', file], dir);
      assert.equal(v.code, 2, v.stdout + v.stderr);
      assert.match(
        v.stdout,
        /nodes\[2\]\.config\.table: column 'window_start' is text \(STRING\) in PostgreSQL but the input gives TIMESTAMP\(3\) NOT NULL/,
      );
      const r = await runWeir(['run', file, '--quiet'], dir);
      assert.equal(r.code, 2, r.stdout + r.stderr);
      assert.match(r.stderr, /nodes\[2\]\.config\.table: column 'window_start' is text \(STRING\)/);
      const ok = await runWeir(['validate', writeJob(dir, windowJob(pg.url, 'public.bounds_ltz'), 'ok.json')], dir);
      assert.equal(ok.code, 0, ok.stdout + ok.stderr);
    } finally {
      cleanup();
    }
  });
});

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

/** A TCP server that accepts connections and never says a word (a stuck database or firewall). */
async function silentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const srv: Server = createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  return {
    port: (srv.address() as { port: number }).port,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        srv.close(() => r());
      }),
  };
}
