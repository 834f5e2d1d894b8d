/**
 * Sources that read splits (Kafka partitions): per partition, the subtask reading it, the offset of
 * the next record and the lag (records between it and the partition's end), from the latest
 * metrics tick. The offsets a checkpoint stores are these as they stood at its barrier.
 */
import { useDoc } from '../state.ts';
import { useMetrics } from '../stores/metricsStore.ts';
import { count } from './format.ts';

export function SourceSplits() {
  const byNode = useMetrics((s) => s.byNode);
  const nodes = useDoc((s) => s.job.nodes);
  const sources = nodes
    .map((n) => ({
      node: n,
      rows: (byNode.get(n.id) ?? []).flatMap((m) => (m.splits ?? []).map((s) => ({ ...s, subtask: m.subtask }))),
    }))
    .filter((x) => x.rows.length > 0);
  if (!sources.length) return null;
  return (
    <div className="ov-box" data-testid="source-splits">
      <h4>
        Source partitions <span className="dim">(next offset and lag per partition)</span>
      </h4>
      {sources.map(({ node, rows }) => (
        <table key={node.id} className="live-table" data-testid={`splits-${node.id}`}>
          <thead>
            <tr>
              <th>{node.name || node.id}</th>
              <th>subtask</th>
              <th>next offset</th>
              <th>lag</th>
            </tr>
          </thead>
          <tbody>
            {[...rows]
              .sort((a, b) => a.split.localeCompare(b.split, undefined, { numeric: true }))
              .map((r) => (
                <tr key={r.split} data-testid={`split-${r.split}`} data-offset={r.offset} data-lag={r.lag}>
                  <td>{r.split}</td>
                  <td>#{r.subtask}</td>
                  <td>{count(r.offset)}</td>
                  <td>{count(r.lag)}</td>
                </tr>
              ))}
          </tbody>
        </table>
      ))}
    </div>
  );
}
