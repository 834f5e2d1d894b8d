/**
 * Prepared transactions of `sink.postgres` (PostgreSQL's two-phase commit), shared by the sink
 * operator and the host's recovery hook.
 *
 * A transaction id (gid) is `weir:<job>:<node>:<lineage>:<subtask>:<checkpoint>:<instance>`, job
 * and node percent-encoded (so `:` only separates) and shortened with a hash past 60 characters, so
 * a gid stays far below PostgreSQL's 200. `weir:<job>:<node>:` is the prefix recovery lists;
 * `instance` is random per operator instance, so a restored run never names a new transaction
 * like one a restored checkpoint lists (whose COMMIT PREPARED a later recovery may repeat).
 *
 * Recovery rule (before any task of an attempt starts): COMMIT PREPARED every gid the restored
 * checkpoint lists as pending (a gid that no longer exists was committed already), ROLLBACK
 * PREPARED every other gid of this job and node (an orphan: its checkpoint never completed, the
 * replay writes its rows again). A fresh start lists nothing, so it rolls back all of them.
 */
import { createHash } from 'node:crypto';
import type pg from 'pg';

function part(s: string): string {
  const enc = encodeURIComponent(s);
  if (enc.length <= 60) return enc;
  return `${enc.slice(0, 40)}~${createHash('sha256').update(s).digest('hex').slice(0, 16)}`;
}

export function gidPrefix(jobName: string, nodeId: string): string {
  return `weir:${part(jobName)}:${part(nodeId)}:`;
}

export function gidOf(
  prefix: string,
  t: { lineage: string; subtask: number; checkpointId: number; instance: string },
): string {
  return `${prefix}${t.lineage}:${t.subtask}:${t.checkpointId}:${t.instance}`;
}

/** The gids of prepared transactions in this database that start with `prefix`. */
export async function preparedWithPrefix(client: pg.Client, prefix: string): Promise<string[]> {
  const r = await client.query<{ gid: string }>(
    `SELECT gid FROM pg_prepared_xacts WHERE database = current_database() AND starts_with(gid, $1) ORDER BY prepared`,
    [prefix],
  );
  return r.rows.map((x) => x.gid);
}

function quoteLiteral(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}

/** COMMIT PREPARED, idempotent: a gid that is gone was committed (recovery never rolls back a listed one). */
export async function commitPrepared(client: pg.Client, gid: string): Promise<boolean> {
  try {
    await client.query(`COMMIT PREPARED ${quoteLiteral(gid)}`);
    return true;
  } catch (e) {
    if ((e as { code?: string }).code === '42704') return false; // undefined_object: already committed
    throw e;
  }
}

export async function rollbackPrepared(client: pg.Client, gid: string): Promise<boolean> {
  try {
    await client.query(`ROLLBACK PREPARED ${quoteLiteral(gid)}`);
    return true;
  } catch (e) {
    if ((e as { code?: string }).code === '42704') return false;
    throw e;
  }
}

export async function prepareTransaction(client: pg.Client, gid: string): Promise<void> {
  await client.query(`PREPARE TRANSACTION ${quoteLiteral(gid)}`);
}

/** The recovery rule above, for one sink node. */
export async function recoverPrepared(
  client: pg.Client,
  prefix: string,
  pending: readonly string[],
): Promise<{ committed: string[]; rolledBack: string[] }> {
  const committed: string[] = [];
  const rolledBack: string[] = [];
  const keep = new Set(pending);
  for (const gid of pending) if (gid.startsWith(prefix) && (await commitPrepared(client, gid))) committed.push(gid);
  for (const gid of await preparedWithPrefix(client, prefix)) {
    if (keep.has(gid)) continue;
    if (await rollbackPrepared(client, gid)) rolledBack.push(gid);
  }
  return { committed, rolledBack };
}
