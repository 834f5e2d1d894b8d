/**
 * `sink.postgres` through real `weir run` processes against a real PostgreSQL: append and upsert
 * give exactly the reference, a bad table fails before any task starts, and a prepared transaction
 * left by an earlier run of the job is rolled back at start.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startPgCluster, type PgCluster } from '../../../support/postgres-cluster.ts';
import { runWeir, tempDir, writeJob } from '../../../support/run-helpers.ts';
import {
  APPEND_ROWS_SQL,
  APPEND_TABLE_SQL,
  UPSERT_ROWS_SQL,
  UPSERT_TABLE_SQL,
  appendJob,
  appendReference,
  rowStrings,
  upsertJob,
  upsertReference,
} from './pg-sink-jobs.ts';
import { gidPrefix } from '../../../../engine/connectors/postgres/sink-txn.ts';

let pg: PgCluster;
before(async () => {
  pg = await startPgCluster();
});
after(async () => {
  await pg?.stop();
});

async function prepared(): Promise<string[]> {
  return (await pg.query<{ gid: string }>('SELECT gid FROM pg_prepared_xacts')).map((r) => r.gid);
}

describe('sink.postgres runs', () => {
  test('append: every generated record becomes exactly one row', { timeout: 90_000 }, async () => {
    await pg.query(APPEND_TABLE_SQL('public.app1'));
    const { dir, cleanup } = tempDir('pg-append');
    try {
      const job = writeJob(dir, appendJob({ name: 'pg-app1', url: pg.url, table: 'public.app1', count: 20_000 }));
      const r = await runWeir(['run', job, '--quiet'], dir);
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(rowStrings(await pg.query(APPEND_ROWS_SQL('public.app1'))), appendReference(20_000));
      assert.deepEqual(await prepared(), [], 'no prepared transaction left after a finished job');
      // A fresh run into a table with rows is not refused (tables are often shared), but told.
      const again = writeJob(
        dir,
        appendJob({ name: 'pg-app1b', url: pg.url, table: 'public.app1', count: 10 }),
        'b.json',
      );
      const r2 = await runWeir(['run', again], dir);
      assert.equal(r2.code, 0, r2.stderr);
      assert.match(
        r2.stdout + r2.stderr,
        /sink 'pg': table public\.app1 already holds rows; this fresh run appends to them/,
      );
    } finally {
      cleanup();
    }
  });

  test('upsert: the table equals the final per-key aggregate', { timeout: 90_000 }, async () => {
    await pg.query(UPSERT_TABLE_SQL('public.up1'));
    const { dir, cleanup } = tempDir('pg-upsert');
    try {
      const job = writeJob(dir, upsertJob({ name: 'pg-up1', url: pg.url, table: 'public.up1', count: 20_000 }));
      const r = await runWeir(['run', job, '--quiet'], dir);
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(rowStrings(await pg.query(UPSERT_ROWS_SQL('public.up1'))), upsertReference(20_000));
      assert.deepEqual(await prepared(), []);
    } finally {
      cleanup();
    }
  });

  test(
    'a prepared transaction of an earlier run of the job is rolled back on a fresh start',
    { timeout: 90_000 },
    async () => {
      await pg.query(APPEND_TABLE_SQL('public.orphan'));
      const orphan = `${gidPrefix('pg-orphan', 'pg')}deadbeef:0:7:cafe`;
      const c = await pgClient();
      try {
        await c.query('BEGIN');
        await c.query(`INSERT INTO public.orphan VALUES (-1, 'orphan', 0, 0)`);
        await c.query(`PREPARE TRANSACTION '${orphan}'`);
      } finally {
        await c.end();
      }
      assert.deepEqual(await prepared(), [orphan], 'the orphan exists before the run');
      const { dir, cleanup } = tempDir('pg-orphan');
      try {
        const job = writeJob(dir, appendJob({ name: 'pg-orphan', url: pg.url, table: 'public.orphan', count: 2_000 }));
        const r = await runWeir(['run', job, '--quiet'], dir);
        assert.equal(r.code, 0, r.stderr);
        assert.deepEqual(await prepared(), [], 'the restart rolled the orphan back');
        const rows = rowStrings(await pg.query(APPEND_ROWS_SQL('public.orphan')));
        assert.ok(!rows.some((x) => x.includes('orphan')), 'the orphan row is not in the table');
        assert.deepEqual(rows, appendReference(2_000));
      } finally {
        cleanup();
      }
    },
  );

  test('window results land in timestamptz, text and numeric columns', { timeout: 90_000 }, async () => {
    await pg.query(
      'CREATE TABLE public.win (window_start timestamptz, window_end timestamptz, key varchar(8), n numeric(12,0))',
    );
    const { dir, cleanup } = tempDir('pg-win');
    try {
      const job = writeJob(dir, {
        format: 'weir.job/v1',
        name: 'pg-win',
        settings: { parallelism: 2, checkpointing: { interval: '200ms' } },
        nodes: [
          { id: 'gen', type: 'source.generator', config: { count: 4000, keys: 3, eventTime: { field: 'ts' } } },
          {
            id: 'w',
            type: 'window',
            config: { keyBy: 'key', window: { kind: 'tumbling', size: '10s' }, aggregates: 'COUNT(*) AS n' },
          },
          { id: 'pg', type: 'sink.postgres', config: { url: pg.url, table: 'win', mode: 'append' } },
        ],
        edges: [
          { from: 'gen', to: 'w' },
          { from: 'w', to: 'pg' },
        ],
      });
      const r = await runWeir(['run', job, '--quiet'], dir);
      assert.equal(r.code, 0, r.stderr);
      const rows = await pg.query<{ total: string; windows: string; span: string }>(
        `SELECT sum(n)::text AS total, count(DISTINCT window_start)::text AS windows,
                max(extract(epoch FROM window_end - window_start))::text AS span FROM public.win`,
      );
      // 4000 records 10 ms apart: 40 s of event time in 10 s windows, every record counted once.
      assert.deepEqual(rows[0], { total: '4000', windows: '4', span: '10.000000' });
    } finally {
      cleanup();
    }
  });

  async function pgClient() {
    const { default: pgLib } = await import('pg');
    const c = new pgLib.Client({ connectionString: pg.url });
    await c.connect();
    return c;
  }

  const failures: Array<[string, string, (t: string) => string, RegExp]> = [
    ['a missing table', 'nosuch', () => 'SELECT 1', /nodes\[1\]\.config\.table: table public\.nosuch does not exist/],
    [
      'a missing column',
      'nocol',
      (t) => `CREATE TABLE ${t} (seq bigint, key text, value bigint)`,
      /nodes\[1\]\.config\.table: table public\.nocol has no column 'ts'/,
    ],
    [
      'a type that cannot take the values',
      'badtype',
      (t) => `CREATE TABLE ${t} (seq bigint, key boolean, value bigint, ts bigint)`,
      // Refused by validation (engine/graph/check-sink-tables.ts), before the run starts, in Flink's terms.
      /nodes\[1\]\.config\.table: column 'key' is boolean \(BOOLEAN\) in PostgreSQL but the input gives STRING, which Flink does not cast to BOOLEAN implicitly/,
    ],
    [
      'a NOT NULL column the job does not write',
      'notnull',
      (t) => `CREATE TABLE ${t} (seq bigint, key text, value bigint, ts bigint, extra text NOT NULL)`,
      /column 'extra' of public\.notnull is NOT NULL without a default/,
    ],
  ];
  for (const [what, table, ddl, expected] of failures) {
    test(`the run fails before any task starts on ${what}`, { timeout: 60_000 }, async () => {
      await pg.query(ddl(`public.${table}`));
      const { dir, cleanup } = tempDir('pg-prestart');
      try {
        const job = writeJob(
          dir,
          appendJob({ name: `pg-${table}`, url: pg.url, table: `public.${table}`, count: 100 }),
        );
        const r = await runWeir(['run', job, '--quiet'], dir);
        assert.notEqual(r.code, 0);
        assert.match(r.stderr, expected);
        assert.doesNotMatch(r.stderr, /^\s+at /m, 'no stack trace');
        assert.deepEqual(await prepared(), []);
      } finally {
        cleanup();
      }
    });
  }

  test('upsert without a unique constraint on the key fails before start', { timeout: 60_000 }, async () => {
    await pg.query(`CREATE TABLE public.nokey (key text, n bigint, total numeric)`);
    const { dir, cleanup } = tempDir('pg-nokey');
    try {
      const job = writeJob(dir, upsertJob({ name: 'pg-nokey', url: pg.url, table: 'public.nokey', count: 100 }));
      const r = await runWeir(['run', job, '--quiet'], dir);
      assert.notEqual(r.code, 0);
      assert.match(
        r.stderr,
        /nodes\[2\]\.config\.key: \(key\) is not a primary key or unique constraint of public\.nokey/,
      );
    } finally {
      cleanup();
    }
  });
});
