/**
 * What the designer shows of a connection's data: each column's name, Flink SQL type, nullability
 * and time attribute, and whether the connection carries a changelog, as the engine's planner
 * derives them (engine/graph/edge-schemas.ts) with the columns sampled from sources' data. The
 * edge popover, the inspector's input list and the completions read it; they show "unknown"
 * rather than guess where the engine cannot tell (an unsampled file, an untyped expression).
 */
import type { JobDocument, JobEdge } from '../../../engine/graph/types.ts';
import { edgeSchemas, type Schema } from '../../../engine/graph/edge-schemas.ts';
import { edgeKey } from './ops.ts';
import { cachedExpressions, validationCache } from './expressionCache.ts';
import { sampledColumns, sampledStore } from './sampledColumns.ts';

export interface SchemaColumn {
  name: string;
  /** Flink SQL type (`STRING`, `DECIMAL(10, 2)`), or null when the engine cannot tell it. */
  type: string | null;
  nullable: boolean;
  /** `rowtime` on the event-time attribute. */
  time: 'rowtime' | null;
}

export interface EdgeSchema {
  /** null: the columns are not known before the run. */
  columns: SchemaColumn[] | null;
  changelog: boolean;
}

function view(s: Schema): EdgeSchema {
  return {
    changelog: s.changelog,
    columns: s.known
      ? s.columns.map((c) => ({
          name: c.name,
          type: c.type === 'UNKNOWN' ? null : c.type,
          nullable: c.nullable,
          time: c.timeAttribute ?? null,
        }))
      : null,
  };
}

/**
 * The schemas of one document shape and sample set, by edge key. Moving a node makes a new
 * document with the same edges and configs, the same shape: dragging never re-types.
 */
let last: { job: JobDocument; byNode: unknown; docPath: string | null; byEdge: Map<string, EdgeSchema> } | null = null;

function sameShape(a: JobDocument, b: JobDocument): boolean {
  if (a === b) return true;
  if (a.edges !== b.edges || a.nodes.length !== b.nodes.length) return false;
  return a.nodes.every((n, i) => {
    const m = b.nodes[i];
    return n === m || (n.id === m.id && n.type === m.type && n.config === m.config);
  });
}

function schemasOf(job: JobDocument, docPath: string | null): Map<string, EdgeSchema> {
  const byNode = sampledStore.getState().byNode;
  if (last && last.byNode === byNode && last.docPath === docPath && sameShape(last.job, job)) return last.byEdge;
  const all = edgeSchemas(job, {
    expressions: cachedExpressions,
    cache: validationCache,
    sampled: (node) => {
      const s = sampledColumns(node, docPath);
      return s && s.columns.length > 0 ? Object.fromEntries(s.columns.map((c) => [c.name, c.type])) : undefined;
    },
  });
  const byEdge = new Map(job.edges.map((e, i) => [edgeKey(e), view(all[i])]));
  last = { job, byNode, docPath, byEdge };
  return byEdge;
}

const UNKNOWN: EdgeSchema = { columns: null, changelog: false };

export function edgeSchema(job: JobDocument, e: JobEdge, docPath: string | null = null): EdgeSchema {
  return schemasOf(job, docPath).get(edgeKey(e)) ?? UNKNOWN;
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
