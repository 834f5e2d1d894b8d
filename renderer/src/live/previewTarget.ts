/**
 * Which live sample the data tab shows for the current selection. A `sink.preview` node keeps its
 * own sample; any other output is sampled on request (host `sampleEdge`, events targeted
 * `edge:<from>.<port>#<subtask>`). Order: the selected preview node; a selected node's output
 * (through a preview sink it feeds, else an edge sample of its output; a sink: its first input);
 * a selected edge (into a preview sink, or a sibling of one on the same port: the same records;
 * else its edge sample); else the job's first preview node. Plain TS.
 */
import type { JobEdge, JobNode } from '../../../engine/graph/types.ts';
import { edgeKey } from '../model/ops.ts';
import { nodeDefinition } from '../../../engine/graph/node-types.ts';
import { previewSink } from '../../../engine/nodes/sink-preview/definition.ts';

export interface EdgeSampleRequest {
  from: string;
  fromPort: NonNullable<JobEdge['fromPort']>;
  to?: string;
}

export interface PreviewTarget {
  /** Key of the records in liveStore.previews: a preview node id or `edge:<from>.<port>`; null = none. */
  key: string | null;
  /** The preview sink shown (null for edge samples). */
  nodeId: string | null;
  label: string;
  /** The edge sample to switch on while it is shown, or null. */
  edge: EdgeSampleRequest | null;
}

/** liveStore key of an output port's samples (the host's target without `#<subtask>`). */
export function edgeSampleKey(from: string, fromPort: NonNullable<JobEdge['fromPort']>): string {
  return `edge:${from}.${fromPort}`;
}

/** A node with no output ports: what it shows is what arrives on its input. */
const isSink = (n: JobNode | undefined) => !!n && nodeDefinition(n.type).ports.outputs.length === 0;

export function previewTarget(
  nodes: readonly JobNode[],
  edges: readonly JobEdge[],
  selNodes: ReadonlySet<string>,
  selEdges: ReadonlySet<string>,
): PreviewTarget {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const name = (id: string) => byId.get(id)?.name || id;
  const preview = (id: string, label: string): PreviewTarget => ({ key: id, nodeId: id, label, edge: null });
  const sample = (e: EdgeSampleRequest, label: string): PreviewTarget => ({
    key: edgeSampleKey(e.from, e.fromPort),
    nodeId: null,
    label,
    edge: e,
  });
  const port = (e: JobEdge) => e.fromPort ?? 'out';
  for (const id of selNodes) {
    const n = byId.get(id);
    if (!n) continue;
    if (n.type === previewSink.type) return preview(n.id, name(n.id));
    if (isSink(n)) {
      // Any other sink (file, PostgreSQL, …): what arrives on its (first) input.
      const e = edges.find((x) => x.to === n.id);
      return e
        ? sample({ from: e.from, fromPort: port(e), to: e.to }, `${name(e.from)} → ${name(n.id)}`)
        : { key: null, nodeId: null, label: name(n.id), edge: null };
    }
    // A selected node that feeds a preview sink: show what it sends there.
    const e = edges.find((x) => x.from === n.id && port(x) === 'out' && byId.get(x.to)?.type === previewSink.type);
    if (e) return preview(e.to, `${name(n.id)} → ${name(e.to)}`);
    return sample({ from: n.id, fromPort: 'out' }, `${name(n.id)} (output)`);
  }
  for (const key of selEdges) {
    const e = edges.find((x) => edgeKey(x) === key);
    if (!e) continue;
    const label = `${name(e.from)}${port(e) === 'out' ? '' : ` (${port(e)})`} → ${name(e.to)}`;
    if (byId.get(e.to)?.type === previewSink.type) return preview(e.to, label);
    const sibling = edges.find(
      (x) => x.from === e.from && port(x) === port(e) && byId.get(x.to)?.type === previewSink.type,
    );
    // A preview sink on the same output sees exactly the records this edge carries.
    if (sibling) return preview(sibling.to, label);
    return sample({ from: e.from, fromPort: port(e), to: e.to }, label);
  }
  const first = nodes.find((n) => n.type === previewSink.type);
  return first ? preview(first.id, name(first.id)) : { key: null, nodeId: null, label: '', edge: null };
}
