/**
 * Rows of a `sink.postgres` table, read back for the app's committed-output viewer: only committed
 * rows exist there (prepared transactions are invisible until COMMIT PREPARED), newest first as
 * PostgreSQL stores them (descending `ctid`: an insert or an update's new version goes after the
 * older ones until VACUUM reuses space, so this is the order of the latest changes in practice, not
 * a guarantee), one page at a time, in a read-only transaction.
 */
import { pgConnect, type PgEndpoint } from './connection.ts';
import { describeTable } from './sink-table.ts';

export interface TablePage {
  /** `schema.table` */
  table: string;
  rows: Array<Record<string, unknown>>;
  total: number;
}

export async function readTableRows(
  endpoint: PgEndpoint & { table: string },
  offset: number,
  limit: number,
  where: string,
): Promise<TablePage> {
  const client = await pgConnect(endpoint, where);
  client.on('error', () => {});
  try {
    await client.query('BEGIN READ ONLY');
    const t = await describeTable(client, endpoint.table, `${where}.table`);
    const total = await client.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${t.sql}`);
    const page =
      limit > 0
        ? await client.query<Record<string, unknown>>(`SELECT * FROM ${t.sql} ORDER BY ctid DESC LIMIT $1 OFFSET $2`, [
            limit,
            offset,
          ])
        : { rows: [] };
    await client.query('COMMIT');
    return { table: t.name, rows: page.rows, total: Number(total.rows[0]?.n ?? 0) };
  } finally {
    await client.end().catch(() => {});
  }
}
