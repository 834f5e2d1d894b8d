/**
 * "Test connection" for the PostgreSQL nodes' forms (EngineHost.testPostgres): connect, find the
 * table, answer its columns with their types and its unique keys, or the one-line reason it failed.
 * A failure is an answer, not an exception: the form shows it beside the button.
 */
import { PgConfigError, pgConnect } from './connection.ts';
import { describeTable } from './sink-table.ts';

export interface PostgresTableReport {
  ok: boolean;
  /** Why it failed (ok: false), naming the field: `url: cannot connect to ...`. */
  message?: string;
  table?: string;
  columns?: { name: string; type: string; notNull: boolean }[];
  uniqueKeys?: string[][];
}

export async function testPostgresTable(req: {
  url: string;
  passwordEnv?: string;
  table: string;
}): Promise<PostgresTableReport> {
  let client;
  try {
    client = await pgConnect(req, 'config');
    client.on('error', () => {});
    const t = await describeTable(client, req.table, 'config.table');
    return {
      ok: true,
      table: t.name,
      columns: t.columns.map((c) => ({ name: c.name, type: c.type, notNull: c.notNull })),
      uniqueKeys: t.uniqueKeys,
    };
  } catch (e) {
    if (e instanceof PgConfigError) return { ok: false, message: e.message.replace(/^config\./, '') };
    return { ok: false, message: (e as Error).message };
  } finally {
    await client?.end().catch(() => {});
  }
}
