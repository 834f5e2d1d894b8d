/**
 * Rows compared as multisets: Weir's sink output, Flink's sink files and the rows recorded from
 * Flink runs (recorded/) meet here in one canonical form.
 */
export type Row = Record<string, unknown>;

/**
 * An updating sink's changes folded into the rows of the final table, so that Weir's
 * changelog-json ({op, data}) and Flink's debezium-json ({before, after, op}) compare as tables.
 */
export function foldChangelog(rows: Row[]): Row[] {
  const table = new Map<string, { row: Row; n: number }>();
  const add = (r: Row, d: number) => {
    const k = JSON.stringify(sortKeys(r));
    const e = table.get(k) ?? { row: r, n: 0 };
    e.n += d;
    table.set(k, e);
  };
  for (const r of rows) {
    if ('data' in r && typeof r.op === 'string') {
      add(r.data as Row, r.op === '+I' || r.op === '+U' ? 1 : -1);
    } else {
      if (r.before) add(r.before as Row, -1);
      if (r.after) add(r.after as Row, 1);
    }
  }
  const out: Row[] = [];
  for (const { row, n } of table.values()) for (let i = 0; i < n; i++) out.push(row);
  return out;
}

/**
 * An upsert stream folded by its key: the last row written per key, a delete removing it. For a
 * debezium-json file whose updates carry no `before` (Flink 2.x drops UPDATE_BEFORE where the
 * sink's query has a unique key: its `c` records are then upserts), which a multiset fold cannot
 * read; on a file with them it gives the same table as foldChangelog.
 */
export function foldUpserts(rows: Row[], key: readonly string[]): Row[] {
  const keyOf = (r: Row) => JSON.stringify(key.map((k) => r[k]));
  const table = new Map<string, Row>();
  for (const r of rows) {
    if (r.op === 'd' && r.before) table.delete(keyOf(r.before as Row));
    else if (r.after) table.set(keyOf(r.after as Row), r.after as Row);
  }
  return [...table.values()];
}

function sortKeys(r: Row): Row {
  return Object.fromEntries(Object.entries(r).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

const TIMESTAMP_TEXT = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d+)?Z?$/;

/**
 * Rows in a canonical order for comparing multisets: keys sorted, numbers (and numeric strings of
 * CSV) to 12 significant digits (Flink adds DOUBLEs in arrival order, Weir exactly: the last
 * digits may differ, see docs/sql-semantics.md), changelogs folded into tables. With `times`,
 * timestamp texts become epoch milliseconds (UTC), so Flink's TIMESTAMP(3) JSON
 * (`2024-01-15 09:00:00`) meets Weir's ISO text (`2024-01-15T09:00:00.000Z`).
 */
export function normalizeRows(rows: Row[], format: string, opts: { times?: boolean } = {}): string[] {
  const table = format === 'changelog-json' || format === 'debezium-json' ? foldChangelog(rows) : rows;
  const norm = (v: unknown): unknown => {
    if (opts.times && typeof v === 'string' && TIMESTAMP_TEXT.test(v))
      return Date.parse(`${v.replace(' ', 'T').replace(/Z$/, '')}Z`);
    if (typeof v === 'number') return Number.isInteger(v) ? v : Number(v.toPrecision(12));
    if (typeof v === 'string' && format === 'csv' && v !== '' && Number.isFinite(Number(v))) return norm(Number(v));
    if (v && typeof v === 'object' && !Array.isArray(v))
      return sortKeys(Object.fromEntries(Object.entries(v).map(([k, x]) => [k, norm(x)])));
    return v;
  };
  return table.map((r) => JSON.stringify(norm(r))).sort();
}

/** Rows in a canonical order with sorted keys, values exact: for comparing two runs of Weir. */
export function canonical(rows: Row[]): string[] {
  return rows.map((r) => JSON.stringify(sortKeys(r))).sort();
}
