/**
 * TIMESTAMP(3) values into PostgreSQL timestamp columns: a window's bounds written by a real
 * `weir run` into `timestamp(3)` and `timestamptz` columns read back as the same instants as an
 * independent reference computes them; and examples/postgres-cdc-upsert's own setup.sql makes a
 * table its job validates against (the bounds are timestamp(3) columns, not text).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { startPgCluster, type PgCluster } from '../../../support/postgres-cluster.ts';
import { runWeir, tempDir, writeJob } from '../../../support/run-helpers.ts';
import { GEN } from './pg-sink-jobs.ts';
import { generatorParams, generatorRecord } from '../../../../engine/connectors/generator-source.ts';
import { loadJob } from '../../../../engine/cli/load-job.ts';

let pg: PgCluster;
before(async () => {
  pg = await startPgCluster();
});
after(async () => {
  await pg?.stop();
});

const COUNT = 3000;

/** gen -> per key and second (tumbling 1s) COUNT(*) -> sink.postgres append. */
function windowJob(url: string, table: string) {
  return {
    format: 'weir.job/v1',
    name: 'pg-timestamps',
    settings: { parallelism: 2, stateBackend: 'fs', checkpointing: { interval: '200ms', dir: 'checkpoints' } },
    nodes: [
      {
        id: 'gen',
        type: 'source.generator',
        config: { ...GEN, count: COUNT, eventTime: { field: 'ts', maxOutOfOrderness: '0s' } },
      },
      {
        id: 'w',
        type: 'window',
        config: { keyBy: 'key', window: { kind: 'tumbling', size: '1s' }, aggregates: 'COUNT(*) AS n' },
      },
      { id: 'pg', type: 'sink.postgres', config: { url, table, mode: 'append' } },
    ],
    edges: [
      { from: 'gen', to: 'w' },
      { from: 'w', to: 'pg' },
    ],
  };
}

/** `key|window_start epoch ms|window_end epoch ms|n` per window, from the generator's own records. */
function reference(): string[] {
  const p = generatorParams({ ...GEN, count: COUNT });
  const counts = new Map<string, number>();
  for (let s = 0; s < COUNT; s++) {
    const r = generatorRecord(p, s);
    const k = `${r.key}|${Math.floor(r.ts / 1000) * 1000}`;
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return [...counts].map(([k, n]) => {
    const [key, start] = k.split('|');
    return `${key}|${start}|${Number(start) + 1000}|${n}`;
  });
}

describe('TIMESTAMP(3) into PostgreSQL timestamp columns', () => {
  test(
    'window bounds into timestamp(3) and timestamptz read back as the same instants',
    { timeout: 120_000 },
    async () => {
      // A session zone far from UTC: a timestamp read as local time would be hours off.
      await pg.query(`ALTER DATABASE postgres SET timezone TO 'America/Los_Angeles'`);
      await pg.query(
        `CREATE TABLE public.bounds (key text NOT NULL, window_start timestamp(3) NOT NULL,
         window_end timestamptz NOT NULL, n bigint NOT NULL)`,
      );
      const { dir, cleanup } = tempDir('pg-timestamps');
      try {
        const job = writeJob(dir, windowJob(pg.url, 'public.bounds'));
        const r = await runWeir(['run', job, '--quiet'], dir);
        assert.equal(r.code, 0, r.stderr);
        // timestamp (no zone) is the UTC wall clock Weir's windows use; timestamptz is an instant.
        const rows = await pg.query<{ key: string; ws: string; we: string; n: string }>(
          `SELECT key, (extract(epoch FROM window_start AT TIME ZONE 'UTC') * 1000)::bigint::text AS ws,
                (extract(epoch FROM window_end) * 1000)::bigint::text AS we, n::text AS n
           FROM public.bounds`,
        );
        const got = rows.map((x) => `${x.key}|${x.ws}|${x.we}|${x.n}`).sort();
        const want = reference().sort();
        assert.ok(want.length > 10, `the reference has ${want.length} windows`);
        assert.deepEqual(got, want);
      } finally {
        cleanup();
      }
    },
  );

  test('examples/postgres-cdc-upsert validates against its own setup.sql', { timeout: 60_000 }, async () => {
    const example = new URL('../../../../examples/postgres-cdc-upsert/', import.meta.url);
    await pg.query(readFileSync(new URL('setup.sql', example), 'utf8'));
    const text = readFileSync(new URL('job.weir.json', example), 'utf8').replaceAll(
      'postgresql://postgres@127.0.0.1:5499/postgres',
      pg.url,
    );
    const { dir, cleanup } = tempDir('pg-example');
    try {
      const file = writeJob(dir, JSON.parse(text));
      const r = await loadJob(file, {}, { checkSinkTables: true });
      const errors = r.problems.filter((p) => p.severity !== 'warning').map((p) => `${p.path}: ${p.message}`);
      assert.deepEqual(errors, []);
      assert.equal(r.ok, true);
      // The tables were read (not an unreachable-server warning): their NOT NULL columns are told.
      assert.ok(
        r.problems.some(
          (p) => p.path === 'nodes[5].config.table' && /NOT NULL but the input may give NULL/.test(p.message),
        ),
        JSON.stringify(r.problems),
      );
    } finally {
      cleanup();
    }
  });
});
