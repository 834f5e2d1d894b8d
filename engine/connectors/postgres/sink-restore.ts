/**
 * Restoring checkpoint k of lineage L: the table is taken back to what an uninterrupted run had
 * committed when k completed, or the restore is refused having changed nothing (the same rule as the
 * file sink's manifest, docs/architecture.md "The sink manifest and the restore rule").
 *
 * Committed when k completed = every ledger row of L with checkpoint <= k (those k lists as pending
 * are committed by the recovery hook, sink-txn.ts). Later ones (checkpoint > k, or NULL: committed at
 * end of input) were committed by a run after k; the replay from k writes their records again, so:
 * - append: their rows are deleted, found by `xmin` (sink-ledger.ts), after proving each
 *   transaction's rows are all there and nothing else has its `xmin`;
 * - upsert: every key they changed gets back the row it had before the earliest of them (sink-undo.ts),
 *   after proving no one else changed those keys since.
 * Refused: rows the restored checkpoint includes were already undone by an earlier restore (to a
 * checkpoint before them), or the proof fails. Prepared, uncommitted transactions of later
 * checkpoints are left to the recovery hook, which rolls them back (k does not list them).
 */
import type pg from 'pg';
import { SinkOutputError } from '../../contracts/sink-recovery.ts';
import { ledgerOf, ledgerRows, rowsByXmin, type LedgerRow } from './sink-ledger.ts';
import { applyUndo, checkUndo } from './sink-undo.ts';
import type { PgTableInfo } from './sink-table.ts';

export interface SinkRestore {
  client: pg.Client;
  schema: string;
  table: PgTableInfo;
  keyCols: PgTableInfo['columns'];
  mode: 'append' | 'upsert';
  job: string;
  node: string;
  lineage: string;
  /** The restored checkpoint. */
  k: number;
  /** The first checkpoint id of the restoring run: recorded in undone ledger rows. */
  firstId: number;
}

function refuse(s: SinkRestore, why: string): never {
  throw new SinkOutputError(
    'restore_refused',
    `cannot restore checkpoint ${s.k} exactly: sink '${s.node}': table ${s.table.name}: ${why}. Nothing was changed.`,
    s.table.name,
  );
}

const later = (k: number) => (e: LedgerRow) => e.undoneBefore === null && (e.checkpoint === null || e.checkpoint > k);

/**
 * Checks the restore and returns the change that makes the table exact (null: nothing to undo),
 * or throws SinkOutputError having changed nothing.
 */
export async function planRestore(s: SinkRestore): Promise<((client: pg.Client) => Promise<string>) | null> {
  const entries = await ledgerRows(s.client, s.schema, {
    job: s.job,
    node: s.node,
    target: s.table.name,
    lineage: s.lineage,
  });
  const gone = entries.filter(
    (e) => e.undoneBefore !== null && e.checkpoint !== null && e.checkpoint <= s.k && s.k < e.undoneBefore,
  );
  if (gone.length > 0)
    refuse(
      s,
      `the rows checkpoint(s) ${[...new Set(gone.map((e) => e.checkpoint))].join(', ')} committed, which ` +
        `checkpoint ${s.k} includes, were deleted when a later run restored an older checkpoint ` +
        `(ledger ${s.schema}.weir_sink_ledger); restore a checkpoint of that run instead`,
    );
  const undo = entries.filter(later(s.k));
  if (undo.length === 0) return null;
  const xids = undo.map((e) => e.xid);
  const what = `${undo.length} transaction(s) of checkpoint(s) after ${s.k}`;
  if (s.mode === 'append') {
    const found = await rowsByXmin(s.client, s.table.sql, [...new Set(undo.map((e) => e.xmin))]);
    const expected = new Map<string, number>();
    for (const e of undo) expected.set(e.xmin, (expected.get(e.xmin) ?? 0) + e.rows);
    for (const [xmin, n] of expected) {
      const got = found.get(xmin) ?? 0;
      if (got !== n)
        refuse(
          s,
          `transaction ${xmin} of a checkpoint after ${s.k} appended ${n} row(s) and ${got} carry its id now ` +
            `(rows updated, deleted or the table rewritten since), so the rows to delete cannot be proven`,
        );
    }
    const rows = [...expected.values()].reduce((a, b) => a + b, 0);
    return async (client) => {
      const r = await client.query(`DELETE FROM ${s.table.sql} WHERE xmin = ANY($1::text[]::xid[])`, [
        [...expected.keys()],
      ]);
      if (r.rowCount !== rows) throw new Error(`deleted ${r.rowCount} rows, expected ${rows}`);
      await markUndone(client, s, xids);
      return `deleted the ${rows} row(s) ${what} appended to ${s.table.name}`;
    };
  }
  const check = await checkUndo(s.client, s.schema, s.table.sql, s.keyCols, xids);
  if (check.changedElsewhere.length > 0)
    refuse(
      s,
      `${check.changedElsewhere.length} key(s) written after checkpoint ${s.k} were changed since by ` +
        `someone else (e.g. ${check.changedElsewhere.slice(0, 3).join(', ')}), so their rows at checkpoint ` +
        `${s.k} cannot be put back exactly`,
    );
  return async (client) => {
    await applyUndo(client, s.schema, s.table.sql, s.keyCols, xids);
    await markUndone(client, s, xids);
    return `put back the row at checkpoint ${s.k} of the ${check.keys} key(s) ${what} changed in ${s.table.name}`;
  };
}

async function markUndone(client: pg.Client, s: SinkRestore, xids: readonly string[]): Promise<void> {
  await client.query(`UPDATE ${ledgerOf(s.schema)} SET undone_before = $1 WHERE xid = ANY($2::text[]::xid8[])`, [
    s.firstId,
    xids,
  ]);
}
