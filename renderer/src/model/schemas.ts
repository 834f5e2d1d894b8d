/**
 * What the designer shows of a connection's data: each column's name, Flink SQL type, nullability
 * and time attribute, and whether the connection carries a changelog. The edge popover and the
 * inspector's input list read it; both show "unknown" rather than guess when the engine cannot
 * type a column (an unsampled file, an expression it cannot compile).
 */
import type { JobDocument, JobEdge, NormalizedJob } from '../../../engine/graph/types.ts';
import { columnTyper } from '../../../engine/graph/column-types.ts';
import type { ColumnType } from '../../../engine/sql/index.ts';
import { edgeColumnNames } from './columns.ts';
import { changelogEdgeKeys } from './changelog.ts';
import { edgeKey } from './ops.ts';
import { sampledColumns, sampledStore } from './sampledColumns.ts';

export interface SchemaColumn {
  name: string;
  /** Flink SQL type (`STRING`, `DECIMAL(10, 2)`), or null when the engine cannot tell it. */
  type: string | null;
  /** Whether the column may be NULL; null when not known. */
  nullable: boolean | null;
  /** `rowtime` for the event-time attribute. */
  time: 'rowtime' | 'proctime' | null;
}

export interface EdgeSchema {
  /** null: the columns are not known before the run. */
  columns: SchemaColumn[] | null;
  changelog: boolean;
}

/** A static type as Flink SQL names it (Weir types INT columns as BIGINT with precision 10). */
export function flinkTypeName(t: ColumnType | undefined): string | null {
  if (!t) return null;
  switch (t.type) {
    case 'BIGINT':
      return t.precision === 10 ? 'INT' : 'BIGINT';
    case 'DECIMAL':
      return `DECIMAL(${t.precision ?? 10}, ${t.scale ?? 0})`;
    case 'TIMESTAMP':
      return 'TIMESTAMP(3)';
    case 'UNKNOWN':
      return null;
    default:
      return t.type;
  }
}

interface Typed {
  byNode: unknown;
  docPath: string | null;
  changelog: Set<string>;
  /** The types each edge carries, typed on demand. */
  types(e: JobEdge): ReadonlyMap<string, ColumnType>;
}

/**
 * One typer per document shape and sample set: typing is linear in the graph, and every popover,
 * the inspector and the completions read it. Moving a node makes a new document with the same
 * edges and configs, which is the same shape: dragging never re-types. An edge's types are what a
 * probe fed by that edge alone receives (a join's target merges its inputs), so the typer types a
 * copy of the job with one probe per edge.
 */
let last: (Typed & { job: JobDocument }) | null = null;

function sameShape(a: JobDocument, b: JobDocument): boolean {
  if (a === b) return true;
  if (a.edges !== b.edges || a.nodes.length !== b.nodes.length) return false;
  return a.nodes.every((n, i) => {
    const m = b.nodes[i];
    return n === m || (n.id === m.id && n.type === m.type && n.config === m.config);
  });
}

function typedOf(job: JobDocument, docPath: string | null): Typed {
  const byNode = sampledStore.getState().byNode;
  if (last && last.byNode === byNode && last.docPath === docPath && sameShape(last.job, job)) return last;
  const probeOf = (e: JobEdge) => `\u0000probe ${edgeKey(e)}`;
  const probed = {
    ...job,
    nodes: [...job.nodes, ...job.edges.map((e) => ({ id: probeOf(e), type: 'sink.preview', config: {} }))],
    edges: [...job.edges, ...job.edges.map((e) => ({ ...e, to: probeOf(e), toPort: undefined }))],
  };
  // The typer reads configs only; a document's configs have the normalized job's shape.
  const typer = columnTyper(probed as unknown as NormalizedJob, {
    sampled: (node) => {
      const s = sampledColumns(node, docPath);
      return s ? Object.fromEntries(s.columns.map((c) => [c.name, c.type])) : undefined;
    },
  });
  const t: Typed = {
    byNode,
    docPath,
    changelog: changelogEdgeKeys(job),
    types: (e) => {
      try {
        return typer.inputOf(probeOf(e));
      } catch {
        return new Map(); // an unfinished document: names without types
      }
    },
  };
  last = { ...t, job };
  return t;
}

/** The rowtime column a source declares (its event-time field). */
function rowtimeOf(job: JobDocument, e: JobEdge): string | null {
  const src = job.nodes.find((n) => n.id === e.from);
  const field = (src?.config as { eventTime?: { field?: unknown } } | undefined)?.eventTime?.field;
  return typeof field === 'string' ? field : null;
}

export function edgeSchema(job: JobDocument, e: JobEdge, docPath: string | null = null): EdgeSchema {
  const t = typedOf(job, docPath);
  const changelog = t.changelog.has(edgeKey(e));
  const names = edgeColumnNames(job, e, docPath);
  if (names.length === 0) return { columns: null, changelog };
  const types = t.types(e);
  const rowtime = rowtimeOf(job, e);
  return {
    changelog,
    columns: names.map((name) => ({
      name,
      type: flinkTypeName(types.get(name)),
      nullable: null,
      time: name === rowtime ? 'rowtime' : null,
    })),
  };
}

/** The schema of every edge into a node, with the input port each arrives on. */
export function inputSchemas(
  job: JobDocument,
  nodeId: string,
  docPath: string | null = null,
): Array<{ edge: JobEdge; schema: EdgeSchema }> {
  return job.edges.filter((e) => e.to === nodeId).map((edge) => ({ edge, schema: edgeSchema(job, edge, docPath) }));
}

/**
 * The Flink type of every column a node's fields can name, for completions: each input's columns,
 * and a join's `L.` / `R.` names. A name two inputs type differently keeps the first input's type.
 */
export function inputColumnTypes(
  job: JobDocument,
  nodeId: string,
  docPath: string | null = null,
): Map<string, string | null> {
  const out = new Map<string, string | null>();
  for (const { edge, schema } of inputSchemas(job, nodeId, docPath)) {
    const prefix = edge.toPort === 'left' ? 'L.' : edge.toPort === 'right' ? 'R.' : null;
    for (const c of schema.columns ?? []) {
      if (!out.has(c.name)) out.set(c.name, c.type);
      if (prefix) out.set(prefix + c.name, c.type);
    }
  }
  return out;
}
