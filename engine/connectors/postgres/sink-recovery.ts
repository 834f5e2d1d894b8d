/**
 * The host's side of `sink.postgres` (contracts/sink-recovery.ts):
 * - prepareOutput, once before the run: connects and checks the table against what the job writes
 *   (table, columns, types, the upsert key's constraint), so a wrong table fails the run before any
 *   task starts, with an error naming `nodes[i].config...`. It changes nothing.
 * - recover, before every attempt: the recovery rule of sink-txn.ts (commit what the restored
 *   checkpoint lists as pending, roll back every other prepared transaction of this job and node).
 *
 * Not covered: rows committed after the restored checkpoint stay (a database table has no manifest
 * of which rows a checkpoint wrote). `--resume` restores the newest completed checkpoint, after which
 * nothing was committed; `--from` an older one re-appends in append mode, and converges in upsert mode.
 */
import type { JobNode } from '../../graph/types.ts';
import type { SinkPrepareContext, SinkRecovery, SinkRecoveryContext } from '../../contracts/sink-recovery.ts';
import { pgConnect } from './connection.ts';
import { gidPrefix, recoverPrepared } from './sink-txn.ts';
import { checkSinkColumns, describeTable } from './sink-table.ts';
import { sinkInputColumns, sinkInputTypes } from './sink-columns.ts';
import type { PostgresSinkState } from './sink-operator.ts';

/** Where the node sits in the job (`nodes[3].config`); the job name is only known in prepareOutput. */
function configPath(job: { nodes: readonly { id: string }[] } | undefined, node: JobNode): string {
  const i = job?.nodes.findIndex((n) => n.id === node.id) ?? -1;
  return i >= 0 ? `nodes[${i}].config` : `node '${node.id}'.config`;
}

async function prepareOutput(ctx: SinkPrepareContext): Promise<() => void> {
  const { node, job } = ctx;
  if (node.type !== 'sink.postgres') return () => {};
  const at = configPath(job, node);
  const client = await pgConnect(node.config, at);
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
  } finally {
    await client.end().catch(() => {});
  }
  return () => {};
}

async function recover(ctx: SinkRecoveryContext): Promise<void> {
  const { node } = ctx;
  if (node.type !== 'sink.postgres') return;
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

export const postgresSinkRecovery: SinkRecovery = {
  recover,
  prepareOutput,
};
