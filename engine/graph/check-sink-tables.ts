/**
 * Sink columns checked against the target table before the run, as Flink's planner checks an
 * `INSERT INTO`: every column the sink receives must exist in the table, and its type must cast
 * implicitly to the column's (flink-implicit-cast.ts). The tables' catalogs are read by the Node
 * side (engine/connectors/postgres/sink-catalogs.ts, for `weir validate`, `weir run` and the host)
 * and handed to `validateJob` as `sinkCatalogs`; the designer validates without them. Browser-safe.
 *
 * What is an error and what a warning follows Flink: a type that does not cast implicitly, a
 * missing table or column are errors; a nullable input into a NOT NULL column is a warning, since
 * Flink accepts the plan and fails at run time on the first NULL (`table.exec.sink.not-null-enforcer`
 * = ERROR). A database that cannot be reached is a warning: the run checks the table when it starts.
 */
import type { JobDocument, JobProblem } from './types.ts';
import { edgeSchemas, type SchemaColumn, type SchemaOptions } from './edge-schemas.ts';
import { castsImplicitly, parseFlinkType } from './flink-implicit-cast.ts';

export interface SinkCatalogColumn {
  name: string;
  /** The column's type as PostgreSQL names it (`character varying(20)`). */
  dbType: string;
  /** The Flink SQL type the connector maps it to (Flink's JDBC dialect); null: one Flink cannot map. */
  flinkType: string | null;
  notNull: boolean;
  hasDefault: boolean;
}

/** What was learnt about one sink node's table before the run. */
export type SinkCatalog =
  | { state: 'table'; table: string; columns: SinkCatalogColumn[]; uniqueKeys: string[][] }
  /** The table is not there (or is no table): `message` says so. */
  | { state: 'missing'; message: string }
  /** Not read (the database did not answer, a password is not available): a warning at `field`. */
  | { state: 'unchecked'; field: string; message: string };

/** Node id -> its table's catalog. */
export type SinkCatalogs = ReadonlyMap<string, SinkCatalog>;

function typeText(c: SchemaColumn): string {
  return c.nullable ? c.type : `${c.type} NOT NULL`;
}

function dbTypeText(col: SinkCatalogColumn): string {
  return col.flinkType ? `${col.dbType} (${col.flinkType})` : col.dbType;
}

/**
 * Why `key` ('a, b') cannot be an upsert key of `table`, or null: each of its columns must exist and
 * together they must be a primary key or unique constraint (the runtime check says the same).
 */
export function upsertKeyProblem(
  key: string,
  table: string,
  columns: ReadonlyMap<string, unknown>,
  uniqueKeys: readonly string[][],
): string | null {
  const cols = key
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  const missing = cols.find((k) => !columns.has(k));
  if (missing !== undefined) return `table ${table} has no column '${missing}'`;
  const sorted = [...cols].sort().join(',');
  if (uniqueKeys.some((u) => [...u].sort().join(',') === sorted)) return null;
  return (
    `(${cols.join(', ')}) is not a primary key or unique constraint of ${table}; upsert needs one ` +
    `(ALTER TABLE ${table} ADD PRIMARY KEY (${cols.join(', ')}))`
  );
}

/** The columns reaching `nodeId`, first input first; null when any input's columns are not known. */
function inputColumns(
  doc: JobDocument,
  nodeId: string,
  schemas: ReturnType<typeof edgeSchemas>,
): SchemaColumn[] | null {
  const out: SchemaColumn[] = [];
  for (const [i, e] of doc.edges.entries()) {
    if (e.to !== nodeId) continue;
    if (!schemas[i]?.known) return null;
    out.push(...schemas[i].columns);
  }
  return out;
}

function checkTable(
  at: string,
  nodeId: string,
  config: { mode?: string; key?: string },
  catalog: Extract<SinkCatalog, { state: 'table' }>,
  input: SchemaColumn[] | null,
  problems: JobProblem[],
): void {
  const error = (path: string, message: string) => problems.push({ path, message, nodeId, severity: 'error' });
  const byName = new Map(catalog.columns.map((c) => [c.name, c]));
  if (config.mode === 'upsert' && typeof config.key === 'string' && config.key.replace(/[\s,]/g, '') !== '') {
    const why = upsertKeyProblem(config.key, catalog.table, byName, catalog.uniqueKeys);
    if (why) error(`${at}.key`, why);
  }
  if (!input) return; // the input's columns are known only from its data: the run checks them
  const written = new Set<string>();
  const mayBeNull: string[] = [];
  const seen = new Set<string>();
  for (const c of input) {
    // A union of inputs gives a column once per input: each distinct type is checked, once.
    const id = `${c.name}\0${typeText(c)}`;
    if (seen.has(id) || (written.has(c.name) && !byName.has(c.name))) continue;
    seen.add(id);
    written.add(c.name);
    const col = byName.get(c.name);
    if (!col) {
      error(
        `${at}.table`,
        `table ${catalog.table} has no column '${c.name}' (it has ${catalog.columns.map((x) => x.name).join(', ')})`,
      );
      continue;
    }
    const source = parseFlinkType(typeText(c));
    const target = col.flinkType ? parseFlinkType(col.flinkType) : null;
    // An untyped input column, or a PostgreSQL type outside Flink's mapping: PostgreSQL checks the value.
    if (!source || !target) continue;
    if (!castsImplicitly(source, target)) {
      error(
        `${at}.table`,
        `column '${c.name}' is ${dbTypeText(col)} in PostgreSQL but the input gives ${typeText(c)}, which Flink ` +
          `does not cast to ${col.flinkType} implicitly (change the column's type, or CAST the value before the sink)`,
      );
    } else if (col.notNull && c.nullable && !mayBeNull.includes(c.name)) mayBeNull.push(c.name);
  }
  const unwritten = catalog.columns.find((col) => col.notNull && !col.hasDefault && !written.has(col.name));
  if (unwritten)
    error(
      `${at}.table`,
      `column '${unwritten.name}' of ${catalog.table} is NOT NULL without a default, and the input does not give it`,
    );
  if (mayBeNull.length > 0)
    problems.push({
      path: `${at}.table`,
      nodeId,
      severity: 'warning',
      message:
        `column${mayBeNull.length > 1 ? 's' : ''} ${mayBeNull.map((n) => `'${n}'`).join(', ')} of ${catalog.table} ` +
        `${mayBeNull.length > 1 ? 'are' : 'is'} NOT NULL but the input may give NULL there: the run fails on the ` +
        `first NULL written (as Flink's table.exec.sink.not-null-enforcer = ERROR does)`,
    });
}

/** Problems of every sink node that has a catalog in `catalogs`, appended to `problems`. */
export function checkSinkCatalogs(
  doc: JobDocument,
  catalogs: SinkCatalogs,
  problems: JobProblem[],
  opts: SchemaOptions = {},
): void {
  if (catalogs.size === 0) return;
  const schemas = edgeSchemas(doc, opts);
  for (const [i, node] of doc.nodes.entries()) {
    const catalog = catalogs.get(node.id);
    if (!catalog) continue;
    const at = `nodes[${i}].config`;
    if (catalog.state === 'unchecked')
      problems.push({ path: `${at}.${catalog.field}`, nodeId: node.id, severity: 'warning', message: catalog.message });
    else if (catalog.state === 'missing')
      problems.push({ path: `${at}.table`, nodeId: node.id, severity: 'error', message: catalog.message });
    else
      checkTable(
        at,
        node.id,
        node.config as { mode?: string; key?: string },
        catalog,
        inputColumns(doc, node.id, schemas),
        problems,
      );
  }
}
