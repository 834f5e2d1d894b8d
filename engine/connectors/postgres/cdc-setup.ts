/**
 * Setting a CDC source up in the database: the publication pgoutput needs, the replication slot,
 * and a REPEATABLE READ transaction on the slot's exported snapshot, so the snapshot holds exactly
 * the transactions committed before the slot's consistent point and the slot streams exactly the
 * ones after it.
 */
import type pg from 'pg';
import { PgConfigError, pgClientConfig, pgConnect, quoteIdent, type PgEndpoint } from './connection.ts';
import { createSlotWithSnapshot } from './replication-stream.ts';
import type { TableInfo } from './table-info.ts';

export interface SlotState {
  exists: boolean;
  active: boolean;
  confirmedFlush: string | null;
}

export async function slotState(client: pg.Client, slot: string): Promise<SlotState> {
  const r = await client.query<{ active: boolean; confirmed_flush_lsn: string | null }>(
    'SELECT active, confirmed_flush_lsn::text FROM pg_replication_slots WHERE slot_name = $1',
    [slot],
  );
  if (r.rows.length === 0) return { exists: false, active: false, confirmedFlush: null };
  return { exists: true, active: r.rows[0].active, confirmedFlush: r.rows[0].confirmed_flush_lsn };
}

/**
 * Waits until no walsender uses the slot: after a killed run, the server notices the dead
 * connection only when it next writes to it.
 */
export async function waitSlotInactive(
  client: pg.Client,
  slot: string,
  where: string,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const s = await slotState(client, slot);
    if (!s.active) return;
    if (Date.now() > deadline)
      throw new PgConfigError(
        where,
        `replication slot ${slot} is in use by another connection (another run of this job?)`,
      );
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function ensurePublication(client: pg.Client, name: string, info: TableInfo): Promise<void> {
  const pub = await client.query('SELECT 1 FROM pg_publication WHERE pubname = $1', [name]);
  if (pub.rows.length === 0) {
    await client.query(`CREATE PUBLICATION ${quoteIdent(name)} FOR TABLE ${info.sql}`);
    return;
  }
  const has = await client.query(
    'SELECT 1 FROM pg_publication_tables WHERE pubname = $1 AND schemaname = $2 AND tablename = $3',
    [name, info.schema, info.table],
  );
  if (has.rows.length === 0) await client.query(`ALTER PUBLICATION ${quoteIdent(name)} ADD TABLE ${info.sql}`);
}

export interface SnapshotTxn {
  /** A connection inside `BEGIN ISOLATION LEVEL REPEATABLE READ` on the exported snapshot. */
  client: pg.Client;
  /** The slot's consistent point: the snapshot holds every transaction committed before it. */
  lsn: string;
}

/** Creates `slot` (temporary: dropped with its connection) and opens a transaction on its snapshot. */
export async function openSnapshotTxn(
  endpoint: PgEndpoint,
  where: string,
  slot: string,
  temporary: boolean,
): Promise<SnapshotTxn> {
  const created = await createSlotWithSnapshot(pgClientConfig(endpoint, where), slot, temporary);
  const client = await pgConnect(endpoint, where);
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    await client.query(`SET TRANSACTION SNAPSHOT '${created.snapshotName.replace(/'/g, "''")}'`);
  } catch (e) {
    await client.end().catch(() => undefined);
    throw e;
  } finally {
    // The imported snapshot outlives its exporter; a temporary slot goes with this connection.
    await created.client.end().catch(() => undefined);
  }
  return { client, lsn: created.consistentPoint };
}
