/**
 * Which `sink.preview` node's sample the data tab shows for the current selection: the selected
 * preview node; an edge into one; an edge or node whose output also feeds one (the same records);
 * else the job's first preview node. Plain TS.
 */
import type { JobEdge, JobNode } from '../../../engine/graph/types.ts';
import { edgeKey } from '../model/ops.ts';

export function previewTarget(nodes: readonly JobNode[], edges: readonly JobEdge[], selNodes: ReadonlySet<string>, selEdges: ReadonlySet<string>):
  { nodeId: string | null; label: string } {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  for (const id of selNodes) {
    const n = byId.get(id);
    if (n?.type === 'sink.preview') return { nodeId: n.id, label: n.name || n.id };
    if (n) {
      // A selected node that feeds a preview sink: show what it sends there.
      const e = edges.find((x) => x.from === n.id && byId.get(x.to)?.type === 'sink.preview');
      if (e) return { nodeId: e.to, label: `${n.name || n.id} → ${byId.get(e.to)!.name || e.to}` };
      return { nodeId: null, label: n.name || n.id };
    }
  }
  for (const key of selEdges) {
    const e = edges.find((x) => edgeKey(x) === key);
    if (!e) continue;
    const label = `${byId.get(e.from)?.name || e.from} → ${byId.get(e.to)?.name || e.to}`;
    if (byId.get(e.to)?.type === 'sink.preview') return { nodeId: e.to, label };
    const sibling = edges.find((x) => x.from === e.from && (x.fromPort ?? 'out') === (e.fromPort ?? 'out') && byId.get(x.to)?.type === 'sink.preview');
    // A preview sink on the same output sees exactly the records this edge carries.
    if (sibling) return { nodeId: sibling.to, label };
    return { nodeId: null, label };
  }
  const first = nodes.find((n) => n.type === 'sink.preview');
  return first ? { nodeId: first.id, label: first.name || first.id } : { nodeId: null, label: '' };
}

