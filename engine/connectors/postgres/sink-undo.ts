/**
 * `weir_sink_undo`: the before-images an upsert sink needs to take its table back to an older
 * checkpoint. Upsert overwrites and deletes rows, so the rows of a later checkpoint cannot simply be
 * deleted as append's are (sink-ledger.ts): the value each key had before must come back.
 *
 * Each upsert flush (sink-operator.ts), in the same transaction and before it writes, inserts one
 * row per key it changes: the transaction id (`pg_current_xact_id()`, the ledger's `xid`), the key
 * (its values as the sink sends them, a JSON array of text), the whole row the key had before as
 * JSON (null: the key was absent) and whether the flush leaves the key deleted. A key appears once
 * per transaction (the flush collapses the checkpoint's changes per key).
 *
 * Restoring checkpoint k (sink-restore.ts): for each key some later transaction changed, the row
 * the earliest of them saw is the row at k. Proof before changing anything: the key's current row
 * must be what the latest of them left (its `xmin` is that transaction's, or the key is absent if it
 * deleted it); a row someone else changed since is refused.
 */
import type pg from 'pg';
import { quoteIdent } from './connection.ts';
import type { PgColumn } from './sink-table.ts';
import { createIfMissing } from './sink-ledger.ts';

export const UNDO_TABLE = 'weir_sink_undo';

export function undoOf(schema: string): string {
  return `${quoteIdent(schema)}.${quoteIdent(UNDO_TABLE)}`;
}

const CREATE = (undo: string) => `CREATE TABLE IF NOT EXISTS ${undo} (
  xid xid8 NOT NULL DEFAULT pg_current_xact_id(),
  key jsonb NOT NULL,
  before jsonb,
  deleted boolean NOT NULL,
  PRIMARY KEY (xid, key)
)`;

export async function ensureUndo(client: pg.Client, schema: string): Promise<void> {
  await createIfMissing(client, undoOf(schema), CREATE(undoOf(schema)));
}

/** `t.k0 = (<json>->>0)::type AND ...`: a key column compared with the JSON key. */
function keyMatch(keyCols: readonly PgColumn[], t: string, json: string): string {
  return keyCols.map((c, i) => `${t}.${quoteIdent(c.name)} = (${json}->>${i})::${c.baseType}`).join(' AND ');
}

/**
 * In the flush's transaction, before its writes: the before-image of every key it changes.
 * Params: one text[] per key column, then a bool[] (the flush deletes the key).
 */
export async function recordBeforeImages(
  client: pg.Client,
  schema: string,
  table: string,
  keyCols: readonly PgColumn[],
  keyArrays: (string | null)[][],
  deleted: boolean[],
): Promise<void> {
  const n = keyCols.length;
  const args = keyCols.map((_, i) => `$${i + 1}::text[]`).join(', ');
  const names = keyCols.map((_, i) => `c${i}`).join(', ');
  const key = `jsonb_build_array(${keyCols.map((_, i) => `u.c${i}`).join(', ')})`;
  await client.query(
    `INSERT INTO ${undoOf(schema)} (key, before, deleted)
     SELECT ${key}, (SELECT to_jsonb(t) FROM ${table} t WHERE ${keyMatch(keyCols, 't', key)}), u.del
       FROM unnest(${args}, $${n + 1}::bool[]) AS u(${names}, del)`,
    [...keyArrays, deleted],
  );
}

export interface UndoCheck {
  /** How many keys the undo puts back. */
  keys: number;
  /** Keys (JSON) whose current row is not what the latest of the transactions left. */
  changedElsewhere: string[];
}

/** Checks the undo of transactions `xids` (64-bit ids as text); changes nothing. */
export async function checkUndo(
  client: pg.Client,
  schema: string,
  table: string,
  keyCols: readonly PgColumn[],
  xids: readonly string[],
): Promise<UndoCheck> {
  const r = await client.query<{ key: string; ok: boolean }>(
    `WITH last AS (
       SELECT DISTINCT ON (key) key, xid, deleted FROM ${undoOf(schema)}
        WHERE xid = ANY($1::text[]::xid8[]) ORDER BY key, xid DESC)
     SELECT last.key::text AS key,
            CASE WHEN last.deleted THEN t.xmin IS NULL ELSE t.xmin::text = xid(last.xid)::text END AS ok
       FROM last LEFT JOIN ${table} t ON ${keyMatch(keyCols, 't', 'last.key')}`,
    [xids],
  );
  return { keys: r.rows.length, changedElsewhere: r.rows.filter((x) => !x.ok).map((x) => x.key) };
}

/** Puts every key transactions `xids` changed back to the row the earliest of them saw. */
export async function applyUndo(
  client: pg.Client,
  schema: string,
  table: string,
  keyCols: readonly PgColumn[],
  xids: readonly string[],
): Promise<number> {
  const first = `SELECT DISTINCT ON (key) key, before FROM ${undoOf(schema)}
                  WHERE xid = ANY($1::text[]::xid8[]) ORDER BY key, xid`;
  const del = await client.query(`DELETE FROM ${table} t USING (${first}) f WHERE ${keyMatch(keyCols, 't', 'f.key')}`, [
    xids,
  ]);
  // Every stored column of the row comes back; generated ones are computed again.
  const stored = await client.query<{ name: string }>(
    `SELECT attname AS name FROM pg_attribute
      WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped AND attgenerated = '' ORDER BY attnum`,
    [table],
  );
  const list = stored.rows.map((c) => quoteIdent(c.name)).join(', ');
  const r = stored.rows.map((c) => `r.${quoteIdent(c.name)}`).join(', ');
  await client.query(
    `INSERT INTO ${table} (${list}) OVERRIDING SYSTEM VALUE
     SELECT ${r} FROM (${first}) f, jsonb_populate_record(NULL::${table}, f.before) r WHERE f.before IS NOT NULL`,
    [xids],
  );
  return del.rowCount ?? 0;
}
