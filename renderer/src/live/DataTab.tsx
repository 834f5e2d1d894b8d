/**
 * A live sample of the records flowing at the selected `sink.preview` node, or on the selected
 * edge when it leads into one. The runtime samples records only at preview sinks (host `preview`
 * events); for other edges the tab says how to see their data.
 */
import { useMemo } from 'react';
import type { JobEdge, JobNode } from '../../../engine/graph/types.ts';
import { useDoc } from '../state.ts';
import { edgeKey } from '../model/ops.ts';
import { useLive } from './liveStore.ts';

/** Which preview node the selection points at, and what to call it. */
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

export function DataTab() {
  const nodes = useDoc((s) => s.job.nodes);
  const edges = useDoc((s) => s.job.edges);
  const selNodes = useDoc((s) => s.selectedNodes);
  const selEdges = useDoc((s) => s.selectedEdges);
  const target = useMemo(() => previewTarget(nodes, edges, selNodes, selEdges), [nodes, edges, selNodes, selEdges]);
  const records = useLive((s) => (target.nodeId ? s.previews.get(target.nodeId) ?? null : null));
  const columns = useMemo(() => {
    const cols = new Set<string>();
    for (const r of records ?? []) if (r && typeof r === 'object') for (const k of Object.keys(r)) cols.add(k);
    return [...cols];
  }, [records]);
  if (!target.nodeId) {
    return (
      <div className="data-tab data-tab--empty" data-testid="data-sample" data-count={0}>
        {target.label ? <>No sample for <b>{target.label}</b>: records are sampled at <code>sink.preview</code> nodes. Connect a Preview sink to this output to watch it.</>
          : <>Select a <code>sink.preview</code> node or an edge into one to watch its records.</>}
      </div>
    );
  }
  const shown = (records ?? []).slice(-30).reverse();
  return (
    <div className="data-tab" data-testid="data-sample" data-count={records?.length ?? 0} data-node={target.nodeId}>
      <div className="data-tab__head">Live sample at <b>{target.label}</b> <span className="dim">(newest first, {records?.length ?? 0} kept)</span></div>
      <table className="live-table live-table--data">
        <thead><tr>{columns.map((c) => <th key={c}>{c}</th>)}</tr></thead>
        <tbody>
          {shown.length === 0 && <tr><td className="live-table__empty">No records yet.</td></tr>}
          {shown.map((r, i) => (
            <tr key={i}>{columns.map((c) => <td key={c}>{fmt((r as Record<string, unknown>)?.[c])}</td>)}</tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function fmt(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}
