/**
 * A live sample of the records flowing at the selected `sink.preview` node, or on the selected
 * edge when it leads into one. The runtime samples records only at preview sinks (host `preview`
 * events); for other edges the tab says how to see their data.
 */
import { useMemo } from 'react';
import { useDoc } from '../state.ts';
import { previewTarget } from './previewTarget.ts';
import { useLive } from './liveStore.ts';

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
