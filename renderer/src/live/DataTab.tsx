/**
 * A live sample of the records at the selection: a `sink.preview` node's own sample, or for any
 * other edge (or node output) the runtime's edge sampler, switched on while this tab shows it.
 * A selected file or PostgreSQL sink shows where it writes and its committed rows first
 * (CommittedOutput.tsx); after the run, only those (nothing flows on its input any more).
 */
import { useMemo } from 'react';
import { useDoc } from '../state.ts';
import { previewTarget } from './previewTarget.ts';
import { useLive } from '../stores/liveStore.ts';
import { useEdgeSample } from './useEdgeSample.ts';
import { useRun, ACTIVE } from '../stores/runStore.ts';
import { CommittedOutput } from './CommittedOutput.tsx';
import { cellText } from './cellText.ts';
import { committedSink } from './committedSink.ts';

export function DataTab() {
  const nodes = useDoc((s) => s.job.nodes);
  const edges = useDoc((s) => s.job.edges);
  const selNodes = useDoc((s) => s.selectedNodes);
  const selEdges = useDoc((s) => s.selectedEdges);
  const target = useMemo(() => previewTarget(nodes, edges, selNodes, selEdges), [nodes, edges, selNodes, selEdges]);
  const sink = useMemo(() => committedSink(nodes, selNodes), [nodes, selNodes]);
  const active = useRun((s) => ACTIVE.has(s.status));
  const error = useEdgeSample(sink && !active ? null : target.edge);
  const records = useLive((s) => (target.key ? (s.previews.get(target.key) ?? null) : null));
  const columns = useMemo(() => {
    const cols = new Set<string>();
    for (const r of records ?? []) if (r && typeof r === 'object') for (const k of Object.keys(r)) cols.add(k);
    return [...cols];
  }, [records]);
  const committed = sink ? <CommittedOutput key={sink.id} nodeId={sink.id} label={sink.name || sink.id} /> : null;
  if (sink && !active) return <div className="data-tab">{committed}</div>;
  if (!target.key) {
    return (
      <div className="data-tab data-tab--empty" data-testid="data-sample" data-count={0}>
        {target.label ? (
          <>
            No records pass <b>{target.label}</b>: it has no input.
          </>
        ) : (
          <>Select an edge or a node to watch the records flowing there.</>
        )}
      </div>
    );
  }
  const shown = (records ?? []).slice(-30).reverse();
  const how = target.edge ? 'sampled on the edge: newest records a few times a second' : 'newest first';
  return (
    <div
      className="data-tab"
      data-testid="data-sample"
      data-count={records?.length ?? 0}
      data-target={target.key}
      data-kind={target.edge ? 'edge' : 'preview'}
      {...(target.nodeId ? { 'data-node': target.nodeId } : {})}
    >
      {committed}
      <div className="data-tab__head">
        Live sample at <b>{target.label}</b>{' '}
        <span className="dim">
          ({how}, {records?.length ?? 0} kept)
        </span>
      </div>
      {error && (
        <div className="data-tab__error" data-testid="data-sample-error">
          Cannot sample this edge: {error}
        </div>
      )}
      <table className="live-table live-table--data">
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c}>{c}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {shown.length === 0 && (
            <tr>
              <td className="live-table__empty">
                {target.edge ? 'Waiting for records on this edge…' : 'No records yet.'}
              </td>
            </tr>
          )}
          {shown.map((r, i) => (
            <tr key={i}>
              {columns.map((c) => (
                <td key={c} title={String((r as Record<string, unknown>)?.[c] ?? '')}>
                  {cellText((r as Record<string, unknown>)?.[c])}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
