/**
 * Reads a table in primary-key order, a page at a time, with keyset pagination
 * (`WHERE (k1, k2) > ($1, $2) ORDER BY k1, k2 LIMIT n`), so resuming after a key costs one index
 * seek however far the read got. The last key is kept as the key columns' text forms, which
 * PostgreSQL casts back to the key's types: the comparison is PostgreSQL's own, whatever the type.
 */
import type pg from 'pg';
import type { Row } from '../../contracts/operator.ts';
import { quoteIdent } from './connection.ts';
import { pgValue, typesKeepingText } from './pg-values.ts';
import type { TableInfo } from './table-info.ts';

export class SnapshotPager {
  private readonly select: string;
  private readonly after: string;
  private readonly order: string;
  private readonly types: Map<string, number>;
  done = false;

  constructor(
    private readonly info: TableInfo,
    /** The key (as text) of the last row read; null = from the start. */
    public lastKey: string[] | null,
  ) {
    const cols = info.columns.map((c) => quoteIdent(c.name));
    const keys = info.key.map(quoteIdent);
    const keyText = keys.map((k, i) => `${k}::text AS "__weir_k${i}"`);
    this.select = `SELECT ${[...cols, ...keyText].join(', ')} FROM ${info.sql}`;
    this.after = `(${keys.join(', ')}) > (${keys.map((_, i) => `$${i + 1}`).join(', ')})`;
    this.order = `ORDER BY ${keys.join(', ')}`;
    this.types = new Map(info.columns.map((c) => [c.name, c.typeOid]));
  }

  /** The next page of at most `max` rows (fewer only at the end of the table). */
  async next(client: pg.Client, max: number): Promise<Row[]> {
    if (this.done) return [];
    const params: unknown[] = this.lastKey ? [...this.lastKey, max] : [max];
    const sql = this.lastKey
      ? `${this.select} WHERE ${this.after} ${this.order} LIMIT $${this.lastKey.length + 1}`
      : `${this.select} ${this.order} LIMIT $1`;
    const res = await client.query({ text: sql, values: params, types: typesKeepingText(client) });
    const rows: Row[] = [];
    const nk = this.info.key.length;
    for (const r of res.rows as Array<Record<string, unknown>>) {
      const row: Row = {};
      for (const [name, oid] of this.types) row[name] = pgValue(oid, r[name]);
      rows.push(row);
    }
    if (res.rows.length > 0) {
      const last = res.rows[res.rows.length - 1] as Record<string, unknown>;
      this.lastKey = Array.from({ length: nk }, (_, i) => String(last[`__weir_k${i}`]));
    }
    if (res.rows.length < max) this.done = true;
    return rows;
  }
}
