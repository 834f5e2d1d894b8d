import { columnReader, compileExpr } from './compile.ts';
import { contextFor } from './context.ts';
import { ExpressionError } from './errors.ts';
import { parseSelectList } from './parse.ts';
import type { ColumnTypes, Evaluator, Row, SqlType } from './types.ts';
import { toJsValue } from './decimal.ts';

export interface ProjectionColumn {
  /** Output column name: the alias, the column's own name, or Flink's default `EXPR$<index>`. */
  name: string;
  /** Source text of the expression, without its alias. */
  expr: string;
  /** Set when the expression is a bare column reference. */
  sourceColumn?: string;
  type?: SqlType;
  /** For a DECIMAL column: its precision and scale; 10 on a BIGINT marks Flink's INT. */
  precision?: number;
  scale?: number;
}

export interface CompiledProjection {
  /** null when `*` is used: every input column passes through, `extra` columns are added after. */
  columns: ProjectionColumn[] | null;
  /** With `*`, the explicit columns besides it (they override input columns of the same name). */
  extra: ProjectionColumn[];
  project: (row: Row) => Row;
  /** The value of each explicit column (`columns`, or `extra` with `*`), what `project` stores under its name. */
  values: Evaluator[];
  /** Columns read from the input row (not including `*`). */
  referenced: string[];
}

/**
 * Compiles a `map.select` list. Unaliased expressions are named as Flink names them, `EXPR$i`
 * with i the 0-based position in the select list; bare columns keep their name.
 */
export function compileProjectionDetailed(text: string, columnTypes?: ColumnTypes): CompiledProjection {
  const parsed = parseSelectList(text);
  const { items } = parsed;
  const referenced: string[] = [];
  const cols: ProjectionColumn[] = [];
  const fns: Evaluator[] = [];
  const seen = new Map<string, number>();
  let stars = 0;
  items.forEach((item, i) => {
    if (item.star) {
      if (item.alias !== null) throw new ExpressionError("'*' cannot have an alias", item.start + 1);
      if (++stars > 1) throw new ExpressionError("'*' may appear only once", item.start + 1);
      return;
    }
    const c = compileExpr(
      item.ast,
      contextFor(text, parsed, item, 'a select list (use a window node to aggregate)', referenced, columnTypes),
    );
    const bare = item.ast.type === 'column_ref' && !(item.ast.array_index?.length > 0);
    const source = bare ? String(item.ast.column) : undefined;
    const name = item.alias ?? source ?? `EXPR$${i}`;
    if (seen.has(name)) throw new ExpressionError(`duplicate column name '${name}'`, item.start + 1);
    seen.set(name, i);
    const col: ProjectionColumn = { name, expr: item.text, type: c.type };
    if (source !== undefined) col.sourceColumn = source;
    if (c.type === 'DECIMAL' && c.scale !== undefined) {
      col.precision = c.precision;
      col.scale = c.scale;
    }
    // An INT (precision 10) stays an INT, as Flink types it.
    if (c.type === 'BIGINT' && c.precision !== undefined) col.precision = c.precision;
    cols.push(col);
    // A DECIMAL leaves the expression as a JS number: rows are JSON (decimal.ts). A bare column of a
    // declared DECIMAL type too: it is read as a Decimal (compile.ts, typedColumn).
    const f = c.fn;
    fns.push(c.type === 'DECIMAL' || (c.type === 'UNKNOWN' && !bare) ? (row) => toJsValue(f(row)) : f);
  });
  const names = cols.map((c) => c.name);
  const n = names.length;
  let project: (row: Row) => Row;
  if (stars > 0) {
    project = (row) => {
      // Copied property by property: adding a column to a `{ ...row }` clone is ~10x slower in V8.
      const out: Row = {};
      for (const k in row) out[k] = row[k];
      for (let i = 0; i < n; i++) out[names[i]] = fns[i](row);
      return out;
    };
  } else {
    project = (row) => {
      const out: Row = {};
      for (let i = 0; i < n; i++) out[names[i]] = fns[i](row);
      return out;
    };
  }
  return { columns: stars > 0 ? null : cols, extra: stars > 0 ? cols : [], project, values: fns, referenced };
}

export interface KeyBy {
  columns: string[];
  /** Stable string key; always equal to JSON.stringify(valuesOf(row)). */
  keyOf: (row: Row) => string;
  /** Key values in column order, missing columns as null. */
  valuesOf: (row: Row) => unknown[];
  /**
   * With exactly one key column: its value (missing as null). Lets hot paths cache by the raw
   * value instead of building the key string per record; the key itself is still `keyOf`.
   */
  single: ((row: Row) => unknown) | null;
}

/** Parses a `window.keyBy` column list. Empty text means no key (one global group, key '[]'). */
export function parseKeyBy(text: string): KeyBy {
  if (typeof text === 'string' && text.trim() === '')
    return { columns: [], keyOf: () => '[]', valuesOf: () => [], single: null };
  const { items } = parseSelectList(text);
  const columns: string[] = [];
  for (const item of items) {
    if (
      item.star ||
      item.ast.type !== 'column_ref' ||
      item.alias !== null ||
      item.ast.table ||
      item.ast.array_index?.length
    ) {
      throw new ExpressionError('keyBy expects a comma-separated list of column names', item.start + 1);
    }
    const name = String(item.ast.column);
    if (columns.includes(name)) throw new ExpressionError(`duplicate key column '${name}'`, item.start + 1);
    columns.push(name);
  }
  const readers = columns.map(columnReader);
  const n = readers.length;
  const json = (v: unknown): string => JSON.stringify(v) ?? 'null';
  let keyOf: (row: Row) => string;
  if (n === 1) {
    keyOf = singleColumnKeyOf(readers[0], json);
  } else if (n === 2) {
    keyOf = pairKeyOf(readers[0], readers[1], json);
  } else {
    keyOf = (row) => {
      let s = '[';
      for (let i = 0; i < n; i++) s += (i > 0 ? ',' : '') + json(readers[i](row));
      return `${s}]`;
    };
  }
  const valuesOf = (row: Row): unknown[] => {
    const out = new Array<unknown>(n);
    for (let i = 0; i < n; i++) out[i] = readers[i](row);
    return out;
  };
  return { columns, keyOf, valuesOf, single: n === 1 ? readers[0] : null };
}

/** Distinct values a single-column keyOf remembers before it checks whether remembering pays. */
const KEY_MEMO_LIMIT = 50_000;

const memoizable = (v: unknown): v is string | number => typeof v === 'string' || typeof v === 'number';

/**
 * keyOf for two key columns (Nexmark's auction and day, bidder and auction), memoized as for one
 * column, by the pair of values: a batch's distinct-key map then hashes a flat string it has seen
 * before instead of a fresh `[a,b]` per record (half of an aggregate's key cost in q17).
 */
function pairKeyOf(
  readA: (row: Row) => unknown,
  readB: (row: Row) => unknown,
  json: (v: unknown) => string,
): (row: Row) => string {
  const part = (v: unknown): string => (typeof v === 'number' && Number.isFinite(v) ? `${v}` : json(v));
  let memo: Map<string | number, Map<string | number, string>> | null = new Map();
  let size = 0;
  let hits = 0;
  return (row) => {
    const a = readA(row);
    const b = readB(row);
    if (memo === null || !memoizable(a) || !memoizable(b)) return `[${part(a)},${part(b)}]`;
    let inner = memo.get(a);
    const known = inner?.get(b);
    if (known !== undefined) {
      hits++;
      return known;
    }
    if (size >= KEY_MEMO_LIMIT) {
      memo = hits >= 4 * KEY_MEMO_LIMIT ? new Map() : null;
      hits = 0;
      size = 0;
      inner = undefined;
    }
    const k = `[${part(a)},${part(b)}]`;
    if (memo !== null) {
      if (inner === undefined) memo.set(a, (inner = new Map()));
      inner.set(b, k);
      size++;
    }
    return k;
  };
}

/**
 * keyOf for one key column. Keys repeat, and the same text for the same value lets callers hash a
 * flat string they have seen before instead of a fresh concatenation per record, so string and
 * number values are memoized. When the memo fills without each entry having been used a few times
 * on average (near-unique keys), memoizing only costs, and it stops for good.
 */
function singleColumnKeyOf(read: (row: Row) => unknown, json: (v: unknown) => string): (row: Row) => string {
  const encode = (v: unknown): string => (typeof v === 'number' && Number.isFinite(v) ? `[${v}]` : `[${json(v)}]`);
  let memo: Map<string | number, string> | null = new Map();
  let hits = 0;
  return (row) => {
    const v = read(row);
    if (memo === null || (typeof v !== 'string' && typeof v !== 'number')) return encode(v);
    // Map keys compare by SameValueZero: 0 and -0 share an entry, as they share the text `[0]`.
    const known = memo.get(v);
    if (known !== undefined) {
      hits++;
      return known;
    }
    if (memo.size >= KEY_MEMO_LIMIT) {
      memo = hits >= 4 * KEY_MEMO_LIMIT ? new Map() : null;
      hits = 0;
    }
    const k = encode(v);
    memo?.set(v, k);
    return k;
  };
}
