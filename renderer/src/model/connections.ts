/**
 * Whether a connection may be drawn, and if not, why, in words shown next to the cursor while
 * dragging. These are the engine's port rules (sources have no input, sinks no output, one input
 * per node except union, `late` only on windows, no cycles, no duplicates).
 */
import type { JobDocument, JobEdge } from '../../../engine/graph/types.ts';
import { typeInfo, type OutputPort } from './catalog.ts';
import { edgeKey } from './ops.ts';

export interface ConnectionRequest { from: string; to: string; fromPort?: string | null; toPort?: string | null }

export type ConnectionVerdict = { ok: true; edge: JobEdge } | { ok: false; reason: string };

export function checkConnection(job: JobDocument, req: ConnectionRequest): ConnectionVerdict {
  const src = job.nodes.find((n) => n.id === req.from);
  const dst = job.nodes.find((n) => n.id === req.to);
  if (!src || !dst) return { ok: false, reason: 'unknown node' };
  if (src.id === dst.id) return { ok: false, reason: 'a node cannot feed itself' };
  const sInfo = typeInfo(src.type);
  const dInfo = typeInfo(dst.type);
  const port = (req.fromPort ?? 'out') as OutputPort;
  if (sInfo.outputs.length === 0) return { ok: false, reason: `${sInfo.label} is a sink: it has no output` };
  if (!sInfo.outputs.includes(port)) return { ok: false, reason: `${sInfo.label} has no '${port}' output` };
  if (!dInfo.hasInput) return { ok: false, reason: `${dInfo.label} is a source: it takes no input` };
  const edge: JobEdge = port === 'out' ? { from: src.id, to: dst.id } : { from: src.id, to: dst.id, fromPort: port };
  if (job.edges.some((e) => edgeKey(e) === edgeKey(edge))) return { ok: false, reason: 'already connected' };
  if (!dInfo.multiInput && job.edges.some((e) => e.to === dst.id)) {
    return { ok: false, reason: `${dst.name ?? dst.id} already has an input; use a Union to merge streams` };
  }
  if (reaches(job, dst.id, src.id)) return { ok: false, reason: 'this connection would create a cycle' };
  return { ok: true, edge };
}

/** True when `to` is reachable from `from` along edges. */
function reaches(job: JobDocument, from: string, to: string): boolean {
  const out = new Map<string, string[]>();
  for (const e of job.edges) {
    const l = out.get(e.from);
    if (l) l.push(e.to); else out.set(e.from, [e.to]);
  }
  const seen = new Set<string>([from]);
  const stack = [from];
  while (stack.length) {
    const n = stack.pop()!;
    if (n === to) return true;
    for (const m of out.get(n) ?? []) if (!seen.has(m)) { seen.add(m); stack.push(m); }
  }
  return false;
}
