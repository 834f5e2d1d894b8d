/**
 * Copy/paste of a selection as JSON text, so it travels through the system clipboard between
 * documents (and windows). The text is a `weir.fragment/v1` object; pasting also accepts a whole
 * `weir.job/v1` document. Pasted nodes get fresh ids; only edges inside the copied set come along.
 */
import type { JobDocument, JobEdge, JobNode } from '../../../engine/graph/types.ts';
import { isNodeType } from './catalog.ts';
import { edgeKey, uniqueId, nodeIds } from './ops.ts';

export const FRAGMENT_FORMAT = 'weir.fragment/v1';

export interface Fragment {
  format: typeof FRAGMENT_FORMAT;
  nodes: JobNode[];
  edges: JobEdge[];
}

export function copyFragment(job: JobDocument, selected: Iterable<string>): Fragment | null {
  const ids = new Set(selected);
  const nodes = job.nodes.filter((n) => ids.has(n.id));
  if (nodes.length === 0) return null;
  const edges = job.edges.filter((e) => ids.has(e.from) && ids.has(e.to));
  return { format: FRAGMENT_FORMAT, nodes, edges };
}

/** Parse clipboard text; null when it is not a fragment or job (pasting ordinary text is a no-op). */
export function parseFragment(text: string): Fragment | null {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  if (!data || typeof data !== 'object') return null;
  const d = data as { format?: unknown; nodes?: unknown; edges?: unknown };
  if (d.format !== FRAGMENT_FORMAT && d.format !== 'weir.job/v1') return null;
  if (!Array.isArray(d.nodes)) return null;
  const nodes = d.nodes.filter(
    (n): n is JobNode =>
      !!n && typeof n === 'object' && typeof (n as JobNode).id === 'string' && isNodeType((n as JobNode).type),
  );
  const edges = Array.isArray(d.edges)
    ? d.edges.filter(
        (e): e is JobEdge =>
          !!e &&
          typeof e === 'object' &&
          typeof (e as JobEdge).from === 'string' &&
          typeof (e as JobEdge).to === 'string',
      )
    : [];
  return nodes.length ? { format: FRAGMENT_FORMAT, nodes, edges } : null;
}

function prefixOf(id: string): string {
  const m = /^(.*?)-\d+$/.exec(id);
  return m && m[1] ? m[1] : id;
}

/**
 * Insert a fragment. `offset` moves every pasted node (pasting twice in a row cascades); when
 * `at` is given the fragment's top-left corner lands there instead.
 */
export function pasteFragment(
  job: JobDocument,
  frag: Fragment,
  opts: { offset?: { x: number; y: number }; at?: { x: number; y: number } } = {},
): { job: JobDocument; ids: string[] } {
  const taken = nodeIds(job);
  const rename = new Map<string, string>();
  for (const n of frag.nodes) {
    const id = uniqueId(prefixOf(n.id), taken);
    taken.add(id);
    rename.set(n.id, id);
  }
  const minX = Math.min(...frag.nodes.map((n) => n.position?.x ?? 0));
  const minY = Math.min(...frag.nodes.map((n) => n.position?.y ?? 0));
  const dx = opts.at ? opts.at.x - minX : (opts.offset?.x ?? 40);
  const dy = opts.at ? opts.at.y - minY : (opts.offset?.y ?? 40);
  const nodes = frag.nodes.map((n) => {
    const id = rename.get(n.id)!;
    const p = n.position ?? { x: 0, y: 0 };
    // Keep a custom name; a name equal to the old id follows the new id.
    const name = n.name === undefined || n.name === n.id ? id : n.name;
    return { ...structuredClone(n), id, name, position: { x: Math.round(p.x + dx), y: Math.round(p.y + dy) } };
  });
  const existing = new Set(job.edges.map(edgeKey));
  const edges: JobEdge[] = [];
  for (const e of frag.edges) {
    const from = rename.get(e.from);
    const to = rename.get(e.to);
    if (!from || !to) continue;
    const ne: JobEdge = e.fromPort && e.fromPort !== 'out' ? { from, to, fromPort: e.fromPort } : { from, to };
    if (!existing.has(edgeKey(ne))) edges.push(ne);
  }
  return {
    job: { ...job, nodes: [...job.nodes, ...nodes], edges: [...job.edges, ...edges] },
    ids: nodes.map((n) => n.id),
  };
}
