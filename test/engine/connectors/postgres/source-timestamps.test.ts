/**
 * timestamp, timestamptz and date columns read by `source.postgres` (CDC: its snapshot, then
 * streamed changes) are Weir's TIMESTAMP values: a real `weir run` copies them into another table's
 * columns of the same types as the same instants and days, a TIMESTAMP literal compares with them,
 * DATE_FORMAT formats them, they are the event-time field, and a file sink writes them in the very
 * form Weir gives any TIMESTAMP (the run's own CAST(... AS TIMESTAMP(3)) of the same instant). The
 * server's session zone and the run's process zone are both far from UTC and from each other: a
 * value read or written as local time anywhere would be hours off; and 02:15 and 02:30 on
 * 2024-03-10 do not exist in the process's zone (a daylight-saving gap), yet are valid zoneless
 * values, read as they are.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startPgCluster, type PgCluster } from '../../../support/postgres-cluster.ts';
import { readCommitted, startWeir, tempDir, waitFor, writeJob } from '../../../support/run-helpers.ts';

let pg: PgCluster;
before(async () => {
  pg = await startPgCluster();
  await pg.query(`ALTER DATABASE postgres SET timezone TO 'America/Los_Angeles'`);
  const cols = 'id int PRIMARY KEY, ts timestamp(3) NOT NULL, tstz timestamptz(3), d date';
  await pg.query(`CREATE TABLE src (${cols})`);
  await pg.query('ALTER TABLE src REPLICA IDENTITY FULL');
  await pg.query(`CREATE TABLE dst (${cols})`);
  await pg.query(
    `INSERT INTO src VALUES
       (1, '2024-01-01 00:00:00', '2024-01-01 00:00:00+00', '2024-01-01'),
       (2, '2024-06-30 23:59:59.999', '2024-06-30 23:59:59.999-07', '2024-02-29'),
       (3, '1969-12-31 23:59:59.5', NULL, NULL),
       (4, '2025-12-31 18:45:12.345', '2026-01-01 03:00:00+05:30', '1999-12-31'),
       (6, '2024-03-10 02:30:00', '2024-03-10 02:30:00+00', '2024-03-10')`,
  );
});
after(async () => {
  await pg?.stop();
});

function job(url: string) {
  const source = { url, table: 'public.src', mode: 'cdc', slotName: 'weir_ts_test' };
  return {
    format: 'weir.job/v1',
    name: 'pg-source-timestamps',
    settings: { parallelism: 1, stateBackend: 'fs', checkpointing: { interval: '200ms', dir: 'checkpoints' } },
    nodes: [
      {
        id: 'src',
        type: 'source.postgres',
        config: {
          ...source,
          columns: { id: 'INT', ts: 'TIMESTAMP(3)', tstz: 'TIMESTAMP_LTZ(3)', d: 'DATE' },
          primaryKey: 'id',
          eventTime: { field: 'ts', maxOutOfOrderness: '0s' },
        },
      },
      { id: 'copy', type: 'sink.postgres', config: { url, table: 'public.dst', mode: 'upsert', key: 'id' } },
      { id: 'recent', type: 'filter', config: { where: "ts > TIMESTAMP '2024-01-01 00:00:00'" } },
      {
        id: 'shown',
        type: 'map',
        config: {
          select:
            "id, ts, tstz, d, DATE_FORMAT(ts, 'yyyy-MM-dd HH:mm:ss.SSS') AS ts_text, " +
            "CAST(DATE_FORMAT(ts, 'yyyy-MM-dd HH:mm:ss.SSS') AS TIMESTAMP(3)) AS ts_again",
        },
      },
      { id: 'out', type: 'sink.file', config: { path: 'out', format: 'changelog-json' } },
    ],
    edges: [
      { from: 'src', to: 'copy' },
      { from: 'src', to: 'recent' },
      { from: 'recent', to: 'shown' },
      { from: 'shown', to: 'out' },
    ],
  };
}

const TABLE_TEXT = `SELECT id, ts::text AS ts, tstz::text AS tstz, d::text AS d FROM %s ORDER BY id`;

async function tableText(table: string): Promise<string[]> {
  const rows = await pg.query(TABLE_TEXT.replace('%s', table));
  return rows.map((r) => JSON.stringify(r));
}

/**
 * The file sink's committed changes by id. Each id arrives once: +I from the snapshot, or (id 3,
 * before 2024 until its update) only the +U whose -U the filter dropped; no id is ever deleted.
 */
function fileRows(dir: string): Map<number, Record<string, unknown>> {
  const rows = new Map<number, Record<string, unknown>>();
  for (const line of readCommitted(join(dir, 'out'))) {
    const c = JSON.parse(line) as { op: string; data: Record<string, unknown> };
    const id = c.data.id as number;
    assert.ok(!rows.has(id) && (c.op === '+I' || c.op === '+U'), `unexpected change ${line}`);
    rows.set(id, c.data);
  }
  return rows;
}

describe('source.postgres timestamp, timestamptz and date columns', () => {
  test(
    'CDC into a PostgreSQL table of the same types and into a file: the same instants, as TIMESTAMP values',
    { timeout: 180_000 },
    async () => {
      const { dir, cleanup } = tempDir('pg-source-ts');
      const run = startWeir(['run', writeJob(dir, job(pg.url)), '--quiet'], dir, { TZ: 'America/New_York' });
      try {
        const same = async () => JSON.stringify(await tableText('dst')) === JSON.stringify(await tableText('src'));
        await waitFor(same, 'the snapshot copied into dst', 90_000);
        // Streamed changes: an update across 1970 (into the process zone's DST gap) and an insert.
        await pg.query(`UPDATE src SET ts = '2024-03-10 02:15:00.007', d = '2024-03-10' WHERE id = 3`);
        await pg.query(
          `INSERT INTO src VALUES (5, '2030-01-01 00:00:00.001', '2030-01-01 00:00:00.001+00', '2030-01-01')`,
        );
        await waitFor(
          async () => (await same()) && fileRows(dir).size === 5,
          'the streamed changes in dst and in the file',
          90_000,
        );
      } finally {
        run.child.kill('SIGINT');
        const r = await run.result;
        assert.equal(r.code, 0, r.stderr);
      }
      try {
        assert.deepEqual(await tableText('dst'), await tableText('src'));
        // Absolute values, read in UTC: nothing was shifted by any zone on the way.
        const utc = await pg.query(
          `SELECT id, to_char(ts, 'YYYY-MM-DD HH24:MI:SS.MS') AS ts,
                  to_char(tstz AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.MS') AS tstz, d::text AS d
             FROM dst ORDER BY id`,
        );
        assert.deepEqual(utc, [
          { id: 1, ts: '2024-01-01 00:00:00.000', tstz: '2024-01-01 00:00:00.000', d: '2024-01-01' },
          { id: 2, ts: '2024-06-30 23:59:59.999', tstz: '2024-07-01 06:59:59.999', d: '2024-02-29' },
          { id: 3, ts: '2024-03-10 02:15:00.007', tstz: null, d: '2024-03-10' },
          { id: 4, ts: '2025-12-31 18:45:12.345', tstz: '2025-12-31 21:30:00.000', d: '1999-12-31' },
          { id: 5, ts: '2030-01-01 00:00:00.001', tstz: '2030-01-01 00:00:00.001', d: '2030-01-01' },
          { id: 6, ts: '2024-03-10 02:30:00.000', tstz: '2024-03-10 02:30:00.000', d: '2024-03-10' },
        ]);
        // The file: only rows after the TIMESTAMP literal, each ts exactly Weir's CAST(... AS TIMESTAMP(3)).
        const rows = fileRows(dir);
        assert.deepEqual([...rows.keys()].sort(), [2, 3, 4, 5, 6], 'id 1 is not > 2024-01-01 00:00:00');
        for (const r of rows.values()) assert.equal(r.ts, r.ts_again, `row ${String(r.id)}: ts as Weir's TIMESTAMP`);
        assert.deepEqual(rows.get(2), {
          id: 2,
          ts: '2024-06-30T23:59:59.999Z',
          tstz: '2024-07-01T06:59:59.999Z',
          d: '2024-02-29',
          ts_text: '2024-06-30 23:59:59.999',
          ts_again: '2024-06-30T23:59:59.999Z',
        });
        assert.deepEqual(rows.get(3), {
          id: 3,
          ts: '2024-03-10T02:15:00.007Z',
          tstz: null,
          d: '2024-03-10',
          ts_text: '2024-03-10 02:15:00.007',
          ts_again: '2024-03-10T02:15:00.007Z',
        });
      } finally {
        cleanup();
      }
    },
  );
});
