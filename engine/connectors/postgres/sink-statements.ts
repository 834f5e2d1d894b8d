/**
 * The statements `sink.postgres` sends, each one round trip for a whole batch: every column travels
 * as one text[] parameter and `unnest` turns the arrays back into rows, so a batch of any size has
 * one parameter per column (no 65535-parameter limit, one parse). Values are sent as text and cast
 * to the column's type without its modifier; the assignment to the column then applies the
 * modifier as any INSERT does (a too-long varchar is an error, never silently cut).
 *
 * Measured into a local PostgreSQL 15 on a busy 2-core machine (test/engine/connectors/postgres/
 * sink-throughput.test.ts): 76,600 rows/s appended, 4 bigint/text columns, a prepared transaction
 * per 20,000 rows; one INSERT per row in one transaction: 1,610 rows/s.
 */
import type { Row } from '../../contracts/operator.ts';
import { quoteIdent } from './connection.ts';
import type { PgColumn } from './sink-table.ts';

/** A value as PostgreSQL text input, or null. */
export function pgText(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  switch (typeof v) {
    case 'string':
      return v;
    case 'number':
      return Number.isFinite(v) ? String(v) : Number.isNaN(v) ? 'NaN' : v > 0 ? 'Infinity' : '-Infinity';
    case 'bigint':
    case 'boolean':
      return String(v);
    default:
      if (v instanceof Date) return v.toISOString();
      // Exact decimals print their digits; plain objects and arrays go to json columns as JSON.
      if (typeof v === 'object' && !Array.isArray(v) && v.toString !== Object.prototype.toString) return String(v);
      return JSON.stringify(v);
  }
}

function unnestFrom(cols: readonly PgColumn[]): string {
  const args = cols.map((_, i) => `$${i + 1}::text[]`).join(', ');
  const names = cols.map((_, i) => `c${i}`).join(', ');
  return `unnest(${args}) AS u(${names})`;
}

function castedColumns(cols: readonly PgColumn[]): string {
  return cols.map((c, i) => `u.c${i}::${c.baseType}`).join(', ');
}

/** `INSERT ... SELECT FROM unnest(...)`, optionally `ON CONFLICT (key) DO UPDATE`. */
export function insertSql(table: string, cols: readonly PgColumn[], conflictKey?: readonly string[]): string {
  const list = cols.map((c) => quoteIdent(c.name)).join(', ');
  let sql = `INSERT INTO ${table} (${list}) SELECT ${castedColumns(cols)} FROM ${unnestFrom(cols)}`;
  if (conflictKey) {
    const keys = new Set(conflictKey);
    const rest = cols.filter((c) => !keys.has(c.name));
    const target = conflictKey.map(quoteIdent).join(', ');
    sql +=
      rest.length === 0
        ? ` ON CONFLICT (${target}) DO NOTHING`
        : ` ON CONFLICT (${target}) DO UPDATE SET ${rest.map((c) => `${quoteIdent(c.name)} = EXCLUDED.${quoteIdent(c.name)}`).join(', ')}`;
  }
  return sql;
}

/** `DELETE ... WHERE (key) IN (SELECT FROM unnest(...))`. */
export function deleteSql(table: string, keyCols: readonly PgColumn[]): string {
  const target = keyCols.map((c) => quoteIdent(c.name)).join(', ');
  return `DELETE FROM ${table} WHERE (${target}) IN (SELECT ${castedColumns(keyCols)} FROM ${unnestFrom(keyCols)})`;
}

/** One text[] per column, in `cols` order. */
export function columnArrays(rows: readonly Row[], cols: readonly PgColumn[]): (string | null)[][] {
  const out = cols.map(() => new Array<string | null>(rows.length));
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r];
    for (let c = 0; c < cols.length; c++) out[c][r] = pgText(row[cols[c].name]);
  }
  return out;
}
