/**
 * The schema of every edge before the run: column names, Flink SQL types, nullability, the time
 * attribute and whether the edge carries a changelog. One function for the designer (edge
 * popover, inspector), the host and the exporters. Browser-safe; never throws.
 *
 * Where each part comes from:
 * - names: the node definitions' `columns` rules (engine/graph/check-columns.ts), a source's
 *   declared columns, else the sampled ones (`sampled`), the Nexmark DDL, the generator's fields;
 * - types: the definitions' `columnTypes` rules (engine/graph/column-types.ts); a column that
 *   keeps a source's declared or sampled type shows that type as written (`TIMESTAMP(3)`,
 *   `VARCHAR(20)`); a type nothing tells is 'UNKNOWN';
 * - nullability: every column is nullable (Flink's default for declared columns) except those
 *   Flink types NOT NULL: COUNT results, window_start/window_end and top-N's rank;
 * - time attribute: a source's event-time column, carried on by filter, map and union;
 * - changelog: engine/graph/changelog.ts.
 */
import type { JobDocument, JobNode, NormalizedJob } from './types.ts';
import { checkGraph, type GraphIndex } from './check-graph.ts';
import { checkColumns, DEAD_LETTER_COLUMNS } from './check-columns.ts';
import { columnTyper, type ColumnTypeOptions } from './column-types.ts';
import { changelogEdges } from './changelog.ts';
import { isNexmarkPort, NEXMARK_COLUMNS, NEXMARK_PORTS, nexmarkColumnNames } from './nexmark.ts';
import { sqlExpressionChecker } from './node-columns.ts';
import type { ExpressionChecker } from './expressions.ts';
import { definitionOf } from './node-types.ts';
import { columnTypeOfFlinkType } from '../nodes/column-types.ts';
import { TOPN_RANK_COLUMN } from '../nodes/topn/definition.ts';
import { compileAggregates, flinkTypeName, type ColumnType } from '../sql/index.ts';

export interface SchemaColumn {
  name: string;
  /** A Flink SQL type ('BIGINT', 'DECIMAL(10, 2)', 'TIMESTAMP(3)'); 'UNKNOWN' where nothing tells it. */
  type: string;
  nullable: boolean;
  /** 'rowtime' on the event-time column. */
  timeAttribute?: 'rowtime';
}

export interface Schema {
  /** Empty when not `known`. */
  columns: SchemaColumn[];
  /** The edge carries +I/-U/+U/-D rows. */
  changelog: boolean;
  /** false: the columns are known only from the data (no declared or sampled columns upstream). */
  known: boolean;
}

export interface SchemaOptions extends ColumnTypeOptions {
  /** Defaults to the real compiler; the designer passes its memoized one (compiling is the slow part). */
  expressions?: ExpressionChecker;
}

const UNKNOWN_SCHEMA: Schema = { columns: [], changelog: false, known: false };

/** Flink's name for a static type; 'UNKNOWN' where nothing tells it. */
export function flinkTypeOfColumnType(t: ColumnType | undefined): string {
  if (!t || t.type === 'UNKNOWN') return t?.composite ?? 'UNKNOWN';
  return flinkTypeName(t.type === 'DECIMAL' ? { precision: 10, scale: 0, ...t } : t);
}

function sameType(a: ColumnType, b: ColumnType | undefined): boolean {
  const t = b ?? { type: 'UNKNOWN' };
  return a.type === t.type && a.precision === t.precision && a.scale === t.scale;
}

/** One schema per edge of `job` (index i describes `job.edges[i]`). */
export function edgeSchemas(job: JobDocument | NormalizedJob, opts: SchemaOptions = {}): Schema[] {
  const doc = job as JobDocument;
  try {
    const scratch: never[] = [];
    const idx = checkGraph(doc, scratch);
    if (!idx.acyclic) return doc.edges.map(() => UNKNOWN_SCHEMA);
    const names = checkColumns(doc, idx, opts.expressions ?? sqlExpressionChecker, scratch, opts.sampled, opts.cache);
    const typer = columnTyper(doc as unknown as NormalizedJob, opts);
    const changelog = changelogEdges(idx);
    const written = writtenTypes(doc, opts);
    const rowtime = rowtimeColumns(idx);
    return doc.edges.map((e, i) => {
      const port = e.fromPort ?? 'out';
      const cols =
        port === 'bad'
          ? DEAD_LETTER_COLUMNS
          : isNexmarkPort(port)
            ? nexmarkColumnNames(port)
            : (names.get(e.from)?.[port] ?? null);
      if (!cols || cols.includes('*')) return { ...UNKNOWN_SCHEMA, changelog: changelog.has(i) };
      const types = typer.outputOf(e.from, port);
      const from = idx.byId.get(e.from)?.node;
      const notNull = from && port === 'out' ? notNullColumns(from) : new Set<string>();
      const time = port === 'bad' ? undefined : rowtime.get(e.from);
      return {
        known: true,
        changelog: changelog.has(i),
        columns: cols.map((name) => {
          const t = types.get(name);
          const w = written.get(name);
          const type = w !== undefined && sameType(columnTypeOfFlinkType(w), t) ? w : flinkTypeOfColumnType(t);
          const col: SchemaColumn = { name, type, nullable: !notNull.has(name) };
          if (time?.has(name)) col.timeAttribute = 'rowtime';
          return col;
        }),
      };
    });
  } catch {
    return doc.edges.map(() => UNKNOWN_SCHEMA);
  }
}

/** The schemas of the edges into `nodeId`, in edge order (a join: its left and right inputs). */
export function inputSchemas(job: JobDocument | NormalizedJob, nodeId: string, opts: SchemaOptions = {}): Schema[] {
  const all = edgeSchemas(job, opts);
  return job.edges.flatMap((e, i) => (e.to === nodeId ? [all[i]] : []));
}

/** Column types as the sources write them (declared, sampled, Nexmark DDL): shown as written. */
function writtenTypes(doc: JobDocument, opts: SchemaOptions): Map<string, string> {
  const out = new Map<string, string>();
  const put = (entries: Iterable<readonly [string, string]>) => {
    for (const [n, t] of entries) if (!out.has(n)) out.set(n, t);
  };
  for (const n of doc.nodes) {
    for (const port of ['out', ...NEXMARK_PORTS]) put(Object.entries(opts.sourceTypes?.(n.id, port) ?? {}));
  }
  for (const n of doc.nodes) {
    const declared = (n.config as { columns?: unknown }).columns;
    if (declared && typeof declared === 'object') put(Object.entries(declared as Record<string, string>));
    else put(Object.entries(opts.sampled?.(n) ?? {}));
    if (n.type === 'source.nexmark') for (const cols of Object.values(NEXMARK_COLUMNS)) put(cols);
  }
  return out;
}

/** Columns Flink types NOT NULL on a node's `out`: COUNTs, the window bounds, top-N's rank. */
function notNullColumns(node: JobNode): Set<string> {
  const out = new Set<string>();
  const c = node.config as { aggregates?: unknown; window?: unknown };
  if (typeof c.aggregates === 'string') {
    for (const a of compileAggregates(c.aggregates)) if (a.fn === 'COUNT') out.add(a.alias);
  }
  if (node.type === 'window' || (node.type === 'topn' && c.window)) {
    out.add('window_start');
    out.add('window_end');
  }
  if (node.type === 'topn') out.add(TOPN_RANK_COLUMN);
  return out;
}

/** Per node: the event-time columns its `out` rows carry (a source's field, passed on unchanged). */
function rowtimeColumns(idx: GraphIndex): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const id of idx.order) {
    const node = idx.byId.get(id)!.node;
    const def = definitionOf(node);
    const field = (node.config as { eventTime?: { field?: string } }).eventTime?.field;
    if (def.eventTime?.has?.(node.config) && field) out.set(id, new Set([field]));
    else if (def.eventTime?.passes) {
      const s = new Set<string>();
      for (const e of idx.inputs.get(id) ?? []) for (const c of out.get(e.from) ?? []) s.add(c);
      out.set(id, s);
    }
  }
  return out;
}
