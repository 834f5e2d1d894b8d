/**
 * What `sink.postgres` needs to know about its table, read from the catalog before any task starts:
 * the columns with their types, which column sets are unique (upsert keys), and whether the job's
 * columns fit. Every problem names the node's config field (`nodes[2].config.table: ...`).
 */
import type pg from 'pg';
import type { ColumnType } from '../../sql/types.ts';
import { PgConfigError, parseTableName } from './connection.ts';
import { upsertKeyProblem } from '../../graph/check-sink-tables.ts';

export interface PgColumn {
  name: string;
  /** `format_type` with the type modifier (`character varying(20)`), for messages and the UI. */
  type: string;
  /** Without the modifier (`character varying`): rows are cast to it, then assigned to the column. */
  baseType: string;
  /** pg_type.typcategory: N numeric, S string, B boolean, D date/time, U user (json, uuid), A array... */
  category: string;
  notNull: boolean;
  hasDefault: boolean;
}

export interface PgTableInfo {
  /** The quoted `"schema"."table"`. */
  sql: string;
  name: string;
  columns: PgColumn[];
  /** Column sets of primary keys and unique indexes without predicate or expressions. */
  uniqueKeys: string[][];
}

/** Reads the table's columns and unique keys; a missing table is a PgConfigError at `where`. */
export async function describeTable(client: pg.Client, table: string, where: string): Promise<PgTableInfo> {
  const t = parseTableName(table, where);
  const name = `${t.schema}.${t.table}`;
  const rel = await client.query<{ oid: string | null; kind: string | null }>(
    `SELECT c.oid::text AS oid, c.relkind::text AS kind FROM pg_class c WHERE c.oid = to_regclass($1)`,
    [t.sql],
  );
  const r = rel.rows[0];
  if (!r)
    throw new PgConfigError(
      where,
      `table ${name} does not exist (create it first: Weir writes into an existing table)`,
    );
  if (r.kind !== 'r' && r.kind !== 'p') throw new PgConfigError(where, `${name} is not a table`);
  const cols = await client.query<{
    name: string;
    type: string;
    base: string;
    category: string;
    not_null: boolean;
    has_default: boolean;
  }>(
    `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type, format_type(a.atttypid, NULL) AS base,
            t.typcategory::text AS category, a.attnotnull AS not_null,
            (a.atthasdef OR a.attidentity <> '' OR a.attgenerated <> '') AS has_default
       FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid
      WHERE a.attrelid = $1::oid AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum`,
    [r.oid],
  );
  const keys = await client.query<{ cols: string[] }>(
    `SELECT array_agg(a.attname::text ORDER BY a.attname) AS cols
       FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
      WHERE i.indrelid = $1::oid AND i.indisunique AND i.indpred IS NULL AND i.indexprs IS NULL
      GROUP BY i.indexrelid`,
    [r.oid],
  );
  return {
    sql: t.sql,
    name,
    columns: cols.rows.map((c) => ({
      name: c.name,
      type: c.type,
      baseType: c.base,
      category: c.category,
      notNull: c.not_null,
      hasDefault: c.has_default,
    })),
    uniqueKeys: keys.rows.map((k) => k.cols),
  };
}

/** `'a, b'` -> ['a', 'b']. */
export function parseKeyColumns(key: string): string[] {
  return key
    .split(',')
    .map((k) => k.trim())
    .filter((k) => k !== '');
}

/** Why a column of PostgreSQL category `category` cannot take values of Weir type `t`, or null. */
function typeMismatch(t: ColumnType, col: PgColumn): string | null {
  const c = col.category;
  if (t.type === 'UNKNOWN' || c === 'S') return null; // text takes every value's text
  const ok: Record<string, readonly string[]> = {
    BIGINT: ['N'],
    DOUBLE: ['N'],
    DECIMAL: ['N'],
    BOOLEAN: ['B'],
    STRING: ['D', 'U', 'E'],
    TIMESTAMP: ['D'],
  };
  if (!(ok[t.type] ?? []).includes(c)) return `cannot take ${t.type} values`;
  const integral = /^(smallint|integer|bigint)$/.test(col.baseType);
  if (integral && (t.type === 'DOUBLE' || (t.type === 'DECIMAL' && (t.scale ?? 0) > 0)))
    return `cannot take ${t.type} values without losing their fraction`;
  return null;
}

export interface SinkColumnsCheck {
  table: PgTableInfo;
  /** Columns the job writes, when known before reading data (null: decided by the rows). */
  columns: readonly string[] | null;
  types: ReadonlyMap<string, ColumnType>;
  mode: 'append' | 'upsert';
  key?: string;
  /** `nodes[i].config` */
  at: string;
}

/** Checks the job's columns against the table; throws PgConfigError naming the first problem. */
export function checkSinkColumns(c: SinkColumnsCheck): void {
  const { table } = c;
  const byName = new Map(table.columns.map((col) => [col.name, col]));
  if (c.columns) {
    for (const name of c.columns) {
      const col = byName.get(name);
      if (!col)
        throw new PgConfigError(
          `${c.at}.table`,
          `table ${table.name} has no column '${name}' (it has ${table.columns.map((x) => x.name).join(', ')})`,
        );
      const t = c.types.get(name);
      const why = t ? typeMismatch(t, col) : null;
      if (why) throw new PgConfigError(`${c.at}.table`, `column '${name}' of ${table.name} is ${col.type} and ${why}`);
    }
    const written = new Set(c.columns);
    const missing = table.columns.find((col) => col.notNull && !col.hasDefault && !written.has(col.name));
    if (missing)
      throw new PgConfigError(
        `${c.at}.table`,
        `column '${missing.name}' of ${table.name} is NOT NULL without a default, and the job does not write it`,
      );
  }
  if (c.mode === 'upsert') {
    const why = upsertKeyProblem(c.key ?? '', table.name, byName, table.uniqueKeys);
    if (why) throw new PgConfigError(`${c.at}.key`, why);
  }
}
