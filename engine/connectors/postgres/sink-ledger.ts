/**
 * `weir_sink_ledger`: which rows of a `sink.postgres` table each checkpoint committed, so that a
 * restore of an older checkpoint deletes exactly the rows committed after it, or is refused.
 *
 * One ledger table per schema of a sink table, created by Weir. Each transaction a sink subtask
 * prepares (sink-operator.ts) inserts one ledger row in that same transaction: job, node, target
 * table, lineage, subtask, checkpoint (NULL: committed at end of input, after the final checkpoint),
 * gid, rows written, and `pg_current_xact_id()`. The row commits or rolls back with the data.
 *
 * How a row of the user's table is known as a checkpoint's: PostgreSQL stamps every row version
 * with the id of the transaction that wrote it (the `xmin` system column), and each prepared
 * transaction is one top-level transaction without subtransactions. So the rows checkpoint n's
 * transaction appended are exactly those whose `xmin` is that transaction's id: no hidden column,
 * no second copy of the rows. `xmin` survives VACUUM, freezing and CLUSTER; a user's UPDATE, a
 * table rewrite, a dump and reload change it. The ledger's row count is the proof: the rows found by
 * `xmin` must be exactly as many as the transaction wrote, else the restore is refused before
 * anything changes (it also catches the 32-bit `xmin` of another transaction ~4 billion later).
 *
 * Restoring checkpoint k of lineage L (sink-restore.ts) undoes the ledger rows of L after k; undone
 * rows stay in the ledger with `undone_before` = the first checkpoint id of the restoring run, so a
 * later restore of a checkpoint taken before that run (id < undone_before) whose history includes
 * them (checkpoint <= its id) is refused: those rows are gone.
 */
import type pg from 'pg';
import { quoteIdent } from './connection.ts';

export const LEDGER_TABLE = 'weir_sink_ledger';

/** The quoted ledger of the schema of `table` (`"schema"."weir_sink_ledger"`). */
export function ledgerOf(schema: string): string {
  return `${quoteIdent(schema)}.${quoteIdent(LEDGER_TABLE)}`;
}

const CREATE = (ledger: string) => `CREATE TABLE IF NOT EXISTS ${ledger} (
  job text NOT NULL,
  node text NOT NULL,
  target text NOT NULL,
  lineage text NOT NULL,
  subtask integer NOT NULL,
  checkpoint bigint,
  gid text,
  rows bigint NOT NULL,
  xid xid8 NOT NULL DEFAULT pg_current_xact_id() PRIMARY KEY,
  written_at timestamptz NOT NULL DEFAULT now(),
  undone_before bigint
)`;

/** Creates Weir's own table `qualified` if missing; two subtasks creating it at once is not an error. */
export async function createIfMissing(client: pg.Client, qualified: string, createSql: string): Promise<void> {
  const r = await client.query<{ oid: string | null }>(`SELECT to_regclass($1)::text AS oid`, [qualified]);
  if (r.rows[0]?.oid) return;
  try {
    await client.query(createSql);
  } catch (e) {
    // duplicate_table, or unique_violation on pg_type when another session created it meanwhile
    const code = (e as { code?: string }).code;
    if (code !== '42P07' && code !== '23505') throw e;
  }
}

export async function ensureLedger(client: pg.Client, schema: string): Promise<void> {
  await createIfMissing(client, ledgerOf(schema), CREATE(ledgerOf(schema)));
}

export interface LedgerEntry {
  job: string;
  node: string;
  target: string;
  lineage: string;
  subtask: number;
  /** null: committed at end of input, after the final checkpoint. */
  checkpoint: number | null;
  gid: string | null;
  rows: number;
}

/** Inside the open transaction whose rows `entry` describes. */
export async function recordInLedger(client: pg.Client, schema: string, entry: LedgerEntry): Promise<void> {
  await client.query(
    `INSERT INTO ${ledgerOf(schema)} (job, node, target, lineage, subtask, checkpoint, gid, rows)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [entry.job, entry.node, entry.target, entry.lineage, entry.subtask, entry.checkpoint, entry.gid, entry.rows],
  );
}

export interface LedgerRow {
  /** The 64-bit transaction id (`xid8`), as text. */
  xid: string;
  /** Its low 32 bits, what `xmin` holds, as text. */
  xmin: string;
  subtask: number;
  checkpoint: number | null;
  rows: number;
  undoneBefore: number | null;
}

/** Every ledger row of one sink node's table in one lineage (none while the ledger does not exist). */
export async function ledgerRows(
  client: pg.Client,
  schema: string,
  w: { job: string; node: string; target: string; lineage: string },
): Promise<LedgerRow[]> {
  const exists = await client.query<{ oid: string | null }>(`SELECT to_regclass($1)::text AS oid`, [ledgerOf(schema)]);
  if (!exists.rows[0]?.oid) return [];
  const r = await client.query<{
    xid: string;
    xmin: string;
    subtask: number;
    checkpoint: string | null;
    rows: string;
    undone_before: string | null;
  }>(
    `SELECT xid::text AS xid, xid(xid)::text AS xmin, subtask, checkpoint::text, rows::text, undone_before::text
       FROM ${ledgerOf(schema)} WHERE job = $1 AND node = $2 AND target = $3 AND lineage = $4 ORDER BY xid`,
    [w.job, w.node, w.target, w.lineage],
  );
  return r.rows.map((x) => ({
    xid: x.xid,
    xmin: x.xmin,
    subtask: x.subtask,
    checkpoint: x.checkpoint === null ? null : Number(x.checkpoint),
    rows: Number(x.rows),
    undoneBefore: x.undone_before === null ? null : Number(x.undone_before),
  }));
}

/** Rows of `table` per `xmin` among `xmins` (one scan of the table). */
export async function rowsByXmin(
  client: pg.Client,
  table: string,
  xmins: readonly string[],
): Promise<Map<string, number>> {
  const r = await client.query<{ x: string; n: string }>(
    `SELECT xmin::text AS x, count(*)::text AS n FROM ${table} WHERE xmin = ANY($1::text[]::xid[]) GROUP BY xmin`,
    [xmins],
  );
  return new Map(r.rows.map((x) => [x.x, Number(x.n)]));
}
