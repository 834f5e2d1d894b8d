/**
 * Edits of a `weir.job/v1` document as pure functions: each takes a JobDocument and returns a new
 * one (unchanged parts shared), so the history can snapshot cheaply and React can compare by
 * identity. No React here; unit-tested in test/renderer/model/ops.test.ts.
 */
import type {
  JobDocument,
  JobEdge,
  JobNode,
  JobSettingsInput,
  NodeType,
  Position,
} from '../../../engine/graph/types.ts';
import { JOB_FORMAT } from '../../../engine/graph/types.ts';
import { typeInfo } from './catalog.ts';

export function emptyJob(name = 'untitled'): JobDocument {
  return { format: JOB_FORMAT, name, settings: {}, nodes: [], edges: [] };
}

/** Stable identity of an edge: at most one edge per (from, port, to). */
export function edgeKey(e: JobEdge): string {
  // A self-join connects one node to both ports of a join: the port keeps the two edges apart.
  return `${e.from}.${e.fromPort ?? 'out'}->${e.to}${e.toPort ? `:${e.toPort}` : ''}`;
}

export function uniqueId(prefix: string, taken: Set<string>): string {
  for (let i = 1; ; i++) {
    const id = `${prefix}-${i}`;
    if (!taken.has(id)) return id;
  }
}

export function nodeIds(job: JobDocument): Set<string> {
  return new Set(job.nodes.map((n) => n.id));
}

export function addNode(job: JobDocument, type: NodeType, position: Position): { job: JobDocument; id: string } {
  const info = typeInfo(type);
  const id = uniqueId(info.idPrefix, nodeIds(job));
  const node = { id, type, name: id, position: roundPos(position), config: info.defaultConfig() } as JobNode;
  return { job: { ...job, nodes: [...job.nodes, node] }, id };
}

export function roundPos(p: Position): Position {
  return { x: Math.round(p.x), y: Math.round(p.y) };
}

export function addEdge(job: JobDocument, edge: JobEdge): JobDocument {
  const e: JobEdge =
    edge.fromPort && edge.fromPort !== 'out'
      ? { from: edge.from, to: edge.to, fromPort: edge.fromPort }
      : { from: edge.from, to: edge.to };
  if (job.edges.some((x) => edgeKey(x) === edgeKey(e))) return job;
  return { ...job, edges: [...job.edges, e] };
}

/** Remove nodes (with every edge touching them) and edges by key. */
export function removeItems(job: JobDocument, nodes: Iterable<string>, edges: Iterable<string> = []): JobDocument {
  const dropN = new Set(nodes);
  const dropE = new Set(edges);
  if (dropN.size === 0 && dropE.size === 0) return job;
  const keptNodes = job.nodes.filter((n) => !dropN.has(n.id));
  const keptEdges = job.edges.filter((e) => !dropE.has(edgeKey(e)) && !dropN.has(e.from) && !dropN.has(e.to));
  if (keptNodes.length === job.nodes.length && keptEdges.length === job.edges.length) return job;
  return { ...job, nodes: keptNodes, edges: keptEdges };
}

export function moveNodes(job: JobDocument, positions: ReadonlyMap<string, Position>): JobDocument {
  if (positions.size === 0) return job;
  let changed = false;
  const nodes = job.nodes.map((n) => {
    const p = positions.get(n.id);
    if (!p) return n;
    const r = roundPos(p);
    if (n.position && n.position.x === r.x && n.position.y === r.y) return n;
    changed = true;
    return { ...n, position: r };
  });
  return changed ? { ...job, nodes } : job;
}

export interface NodePatch {
  name?: string;
  parallelism?: number | undefined;
  config?: unknown;
}

export function updateNode(job: JobDocument, id: string, patch: NodePatch): JobDocument {
  let changed = false;
  const nodes = job.nodes.map((n) => {
    if (n.id !== id) return n;
    changed = true;
    const next = { ...n, ...patch } as JobNode & { parallelism?: number };
    if ('parallelism' in patch && patch.parallelism === undefined) delete next.parallelism;
    return next;
  });
  return changed ? { ...job, nodes } : job;
}

/** Rename a node id, rewriting edges that reference it. Refuses empty or taken ids (returns job). */
export function renameNodeId(job: JobDocument, from: string, to: string): JobDocument {
  if (!to || from === to || job.nodes.some((n) => n.id === to)) return job;
  return {
    ...job,
    nodes: job.nodes.map((n) => (n.id === from ? { ...n, id: to } : n)),
    edges: job.edges.map((e) =>
      e.from === from || e.to === from
        ? { ...e, from: e.from === from ? to : e.from, to: e.to === from ? to : e.to }
        : e,
    ),
  };
}

export function setSettings(job: JobDocument, settings: JobSettingsInput): JobDocument {
  return { ...job, settings };
}

export function setName(job: JobDocument, name: string): JobDocument {
  return name === job.name ? job : { ...job, name };
}

/** Set a value at a dotted path inside a plain object, copying along the way; `undefined` deletes. */
export function setIn<T extends object>(obj: T, path: readonly string[], value: unknown): T {
  if (path.length === 0) return value as T;
  const [head, ...rest] = path;
  const src = (obj ?? {}) as Record<string, unknown>;
  const copy: Record<string, unknown> = { ...src };
  if (rest.length === 0) {
    if (value === undefined) delete copy[head];
    else copy[head] = value;
  } else {
    const child = src[head] && typeof src[head] === 'object' ? src[head] : {};
    const nextChild = setIn(child, rest, value) as Record<string, unknown>;
    if (Object.keys(nextChild).length === 0) delete copy[head];
    else copy[head] = nextChild;
  }
  return copy as T;
}
