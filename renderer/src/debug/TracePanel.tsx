/**
 * The traced record's path, node by node (NiFi's provenance for a pipeline): the record as its
 * source read it, then every node it changed with the rows it contributed to and the rows its
 * arrival replaced (an aggregate's earlier value). Escape or the button clears the trace.
 */
import { docStore, useDoc } from '../state.ts';
import { clearTrace, type TraceState } from './previewStore.ts';
import { cellText } from '../model/cellText.ts';
import { plural } from './previewFigures.ts';

function rowText(row: Record<string, unknown>): string {
  return Object.entries(row)
    .map(([k, v]) => `${k}=${cellText(v)}`)
    .join(', ');
}

export function TracePanel({ trace }: { trace: TraceState }) {
  const nodes = useDoc((s) => s.job.nodes);
  const name = (id: string) => {
    const n = nodes.find((x) => x.id === id);
    return n?.name || id;
  };
  const r = trace.result;
  const path = r?.record ? nodes.filter((n) => n.id in r.nodes || n.id === trace.source).map((n) => n.id) : [];
  return (
    <aside
      className="pv-trace"
      data-testid="trace-panel"
      data-status={trace.status}
      data-path={path.join(',')}
      aria-label="Trace of a record"
    >
      <div className="pv-trace__head">
        <h3 className="pv-node__title">
          Trace of record {trace.index} of {name(trace.source)}
        </h3>
        <button
          type="button"
          className="btn"
          data-testid="trace-clear"
          onClick={clearTrace}
          title="Clear the trace (Esc)"
        >
          Clear trace
        </button>
      </div>
      {trace.status === 'running' && <p className="pv-empty">Tracing… (the sample runs twice, with and without it)</p>}
      {trace.status === 'error' && (
        <p className="pv-error" role="alert">
          Could not trace: {trace.error}
        </p>
      )}
      {r && !r.record && <p className="pv-empty">The sample does not reach record {trace.index} of this source.</p>}
      {r?.record && (
        <>
          <p className="pv-trace__record">
            <code>{rowText(r.record.row)}</code>
          </p>
          <ol className="pv-trace__path">
            {path
              .filter((id) => id !== trace.source || r.nodes[id])
              .map((id) => {
                const t = r.nodes[id];
                return (
                  <li key={id} data-testid={`trace-node-${id}`} data-contributed={t?.contributed.length ?? 0}>
                    <button
                      type="button"
                      className="pv-trace__node"
                      title="Select this node on the canvas"
                      onClick={() => docStore.getState().select([id])}
                    >
                      {name(id)}
                    </button>{' '}
                    <span className="pv-dim">
                      {t.contributed.length === 0
                        ? 'no row of its own'
                        : `${plural(t.contributed.length, 'row')} it contributed to`}
                      {t.replaced.length > 0 ? `, ${plural(t.replaced.length, 'row')} it replaced` : ''}
                    </span>
                    <ul className="pv-trace__rows">
                      {t.contributed.map((x, i) => (
                        <li key={`c${i}`}>
                          {x.port === 'write' ? 'would write ' : x.port !== 'out' ? `${x.port}: ` : ''}
                          {x.kind ? `${x.kind} ` : ''}
                          <code>{rowText(x.row)}</code>
                        </li>
                      ))}
                      {t.replaced.map((x, i) => (
                        <li key={`r${i}`} className="pv-trace__replaced">
                          replaced: <code>{rowText(x.row)}</code>
                        </li>
                      ))}
                    </ul>
                  </li>
                );
              })}
          </ol>
          {path.length === 1 && (
            <p className="pv-empty">This record changed no node's output (a filter dropped it, or it was late).</p>
          )}
        </>
      )}
    </aside>
  );
}
