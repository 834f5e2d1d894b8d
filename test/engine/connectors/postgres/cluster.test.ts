/**
 * The throwaway cluster the PostgreSQL tests share: it starts with what two-phase commit and
 * logical replication need, and stops cleanly.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startPgCluster } from '../../../support/postgres-cluster.ts';

test('a throwaway cluster has logical WAL and prepared transactions on, and stops', async () => {
  const pg = await startPgCluster();
  try {
    const [wal] = await pg.query<{ wal_level: string }>('SHOW wal_level');
    assert.equal(wal.wal_level, 'logical');
    const [prep] = await pg.query<{ max_prepared_transactions: string }>('SHOW max_prepared_transactions');
    assert.ok(Number(prep.max_prepared_transactions) > 0);
  } finally {
    await pg.stop();
  }
  await assert.rejects(pg.query('SELECT 1'));
});
