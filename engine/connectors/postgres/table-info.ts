/**
 * What a PostgreSQL source needs to know about its table before reading: the columns with their
 * type OIDs, the primary key (keyset pagination and the offset need one) and the replica identity
 * (CDC update-before images need FULL).
 */
import type pg from 'pg';
import { PgConfigError } from './connection.ts';

export interface TableColumn {
  name: string;
  typeOid: number;
  /** `format_type` name: `integer`, `numeric(10,2)`, `timestamp without time zone`. */
  pgType: string;
}

export interface TableInfo {
  schema: string;
  table: string;
  /** `"schema"."table"` */
  sql: string;
  columns: TableColumn[];
  /** Primary-key columns in key order. */
  key: string[];
  replicaIdentity: 'default' | 'nothing' | 'full' | 'index';
}

const IDENTITY: Record<string, TableInfo['replicaIdentity']> = { d: 'default', n: 'nothing', f: 'full', i: 'index' };

export async function readTableInfo(
  client: pg.Client,
  t: { schema: string; table: string; sql: string },
  where: string,
): Promise<TableInfo> {
  const rel = await client.query<{ oid: number; relreplident: string }>(
    `SELECT c.oid, c.relreplident FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relname = $2 AND c.relkind IN ('r', 'p')`,
    [t.schema, t.table],
  );
  if (rel.rows.length === 0) throw new PgConfigError(where, `table ${t.schema}.${t.table} does not exist`);
  const oid = rel.rows[0].oid;
  const cols = await client.query<{ name: string; typeoid: number; pgtype: string }>(
    `SELECT attname AS name, atttypid::int AS typeoid, format_type(atttypid, atttypmod) AS pgtype
       FROM pg_attribute WHERE attrelid = $1 AND attnum > 0 AND NOT attisdropped ORDER BY attnum`,
    [oid],
  );
  const key = await client.query<{ name: string }>(
    `SELECT a.attname AS name FROM pg_index i, unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord)
       JOIN pg_attribute a ON a.attnum = k.attnum
      WHERE i.indrelid = $1 AND i.indisprimary AND a.attrelid = $1 ORDER BY k.ord`,
    [oid],
  );
  if (key.rows.length === 0)
    throw new PgConfigError(
      where,
      `table ${t.schema}.${t.table} has no primary key (the source reads in key order and resumes after the last key)`,
    );
  return {
    ...t,
    columns: cols.rows.map((c) => ({ name: c.name, typeOid: c.typeoid, pgType: c.pgtype })),
    key: key.rows.map((k) => k.name),
    replicaIdentity: IDENTITY[rel.rows[0].relreplident] ?? 'default',
  };
}

/**
 * The columns of the output rows: the declared `columns` (each must be in the table), else every
 * column the table had when the reader opened. A column added later never enters the rows.
 */
export function outputColumns(declared: Record<string, string> | undefined, info: TableInfo, where: string): string[] {
  if (!declared) return info.columns.map((c) => c.name);
  const names = Object.keys(declared);
  const missing = names.filter((n) => !info.columns.some((c) => c.name === n));
  if (missing.length)
    throw new PgConfigError(
      where,
      `column(s) ${missing.join(', ')} not in table ${info.schema}.${info.table} (it has ${info.columns.map((c) => c.name).join(', ')})`,
    );
  return names;
}
