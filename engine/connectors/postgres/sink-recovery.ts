/**
 * The host's side of `sink.postgres` (contracts/sink-recovery.ts):
 * - prepareOutput, once before the run: connects and checks the table against what the job writes
 *   (table, columns, types, the upsert key's constraint), so a wrong table fails the run before any
 *   task starts, with an error naming `nodes[i].config...`. A restore is checked against the ledger
 *   (sink-restore.ts: exact, or refused having changed nothing); the change it returns, run after
 *   every sink's check, creates the ledger (sink-ledger.ts, sink-undo.ts) and takes the table back to
 *   the restored checkpoint.
 * - recover, before every attempt: the recovery rule of sink-txn.ts (commit what the restored
 *   checkpoint lists as pending, roll back every other prepared transaction of this job and node).
 */
import type { JobNode } from '../../graph/types.ts';
import type {
  SinkOutputChange,
  SinkPrepareContext,
  SinkRecovery,
  SinkRecoveryContext,
} from '../../contracts/sink-recovery.ts';
import type pg from 'pg';
import { PgConfigError, parseTableName, pgConnect } from './connection.ts';
import { gidPrefix, recoverPrepared } from './sink-txn.ts';
import { checkSinkColumns, describeTable, parseKeyColumns } from './sink-table.ts';
import { ensureLedger } from './sink-ledger.ts';
import { ensureUndo } from './sink-undo.ts';
import { planRestore } from './sink-restore.ts';
import { sinkInputColumns, sinkInputTypes } from './sink-columns.ts';
import type { PostgresSinkState } from './sink-operator.ts';
import { postgresSink } from '../../nodes/sink-postgres/definition.ts';

/** Where the node sits in the job (`nodes[3].config`); the job name is only known in prepareOutput. */
function configPath(job: { nodes: readonly { id: string }[] } | undefined, node: JobNode): string {
  const i = job?.nodes.findIndex((n) => n.id === node.id) ?? -1;
  return i >= 0 ? `nodes[${i}].config` : `node '${node.id}'.config`;
}

async function prepareOutput(ctx: SinkPrepareContext): Promise<SinkOutputChange> {
  const { node, job } = ctx;
  if (node.type !== postgresSink.type) return () => {};
  const at = configPath(job, node);
  const { schema } = parseTableName(node.config.table, `${at}.table`);
  const client = await pgConnect(node.config, at);
  let restore: Awaited<ReturnType<typeof planRestore>> = null;
  try {
    const table = await describeTable(client, node.config.table, `${at}.table`);
    checkSinkColumns({
      table,
      columns: sinkInputColumns(job, node.id),
      types: sinkInputTypes(job, node.id),
      mode: node.config.mode,
      key: node.config.key,
      at,
    });
    if (ctx.restored === null && node.config.mode === 'append') {
      // Not refused as the file sink does (a table is often shared), but said: a rerun appends again.
      const r = await client.query(`SELECT EXISTS (SELECT 1 FROM ${table.sql}) AS some`);
      if ((r.rows[0] as { some: boolean }).some)
        ctx.notice(
          `sink '${node.id}': table ${table.name} already holds rows; this fresh run appends to them ` +
            `(--resume continues an interrupted run without writing its committed rows again)`,
        );
    }
    if (ctx.restored !== null) {
      const byName = new Map(table.columns.map((c) => [c.name, c]));
      restore = await planRestore({
        client,
        schema,
        table,
        keyCols: parseKeyColumns(node.config.key ?? '').map((k) => byName.get(k)!),
        mode: node.config.mode,
        job: ctx.jobName,
        node: node.id,
        lineage: ctx.restored.lineage,
        k: ctx.restored.id,
        firstId: ctx.firstId,
      });
    }
  } finally {
    await client.end().catch(() => {});
  }
  return async () => {
    const c = await pgConnect(node.config, at);
    try {
      await c.query('BEGIN');
      // Without checkpoints there is nothing to restore, so nothing to keep (sink-operator.ts agrees).
      if (job.settings.checkpointing.interval !== null) await createLedger(c, node.config.mode, schema, `${at}.table`);
      const done = restore ? await restore(c) : null;
      await c.query('COMMIT');
      if (done)
        ctx.notice(`sink '${node.id}': ${done}; the replay from checkpoint ${ctx.restored?.id} writes them again`);
    } finally {
      await c.end().catch(() => {});
    }
  };
}

async function recover(ctx: SinkRecoveryContext): Promise<void> {
  const { node } = ctx;
  if (node.type !== postgresSink.type) return;
  const pending = ctx.states.flatMap((s) => (s as Partial<PostgresSinkState> | undefined)?.pending ?? []);
  const client = await pgConnect(node.config, `node '${node.id}'.config`);
  try {
    await recoverPrepared(
      client,
      gidPrefix(ctx.jobName, node.id),
      pending.map((p) => p.gid),
    );
  } finally {
    await client.end().catch(() => {});
  }
}

/** The ledger (and, for upsert, the undo table) next to the sink table; no right to create them is an error naming the field. */
async function createLedger(c: pg.Client, mode: 'append' | 'upsert', schema: string, at: string): Promise<void> {
  try {
    await ensureLedger(c, schema);
    if (mode === 'upsert') await ensureUndo(c, schema);
  } catch (e) {
    throw new PgConfigError(
      at,
      `Weir keeps which rows each checkpoint wrote in ${schema}.weir_sink_ledger` +
        `${mode === 'upsert' ? ' and weir_sink_undo' : ''} and could not create it: ${(e as Error).message}`,
    );
  }
}

export const postgresSinkRecovery: SinkRecovery = {
  recover,
  // A restored run keeps its lineage: the ledger's rows of a checkpoint are found by it.
  lineage(states) {
    for (const s of states) {
      const lineage = (s as Partial<PostgresSinkState> | undefined)?.lineage;
      if (typeof lineage === 'string') return lineage;
    }
    return null;
  },
  prepareOutput,
};
