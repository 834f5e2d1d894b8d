/**
 * The selected node's preview: its output rows (per port), what a sink would write, and its late
 * and bad records apart, each with the reason. A source's rows carry the Trace action.
 */
import { useMemo } from 'react';
import type { JobNode } from '../../../engine/graph/types.ts';
import { typeInfo } from '../model/catalog.ts';
import { usePreview, type NodePreview } from './previewStore.ts';
import { traceRecordAt } from './previewActions.ts';
import { nodeFigures, plural } from './previewFigures.ts';
import { RowsTable } from './RowsTable.tsx';

const LATE_REASON = 'arrived after the watermark had passed the end of its window (plus the allowed lateness)';

export function NodeRows({ node, preview }: { node: JobNode; preview: NodePreview }) {
  const info = typeInfo(node.type);
  const sink = info.group === 'Sinks';
  const f = nodeFigures(preview, sink);
  const trace = usePreview((s) => s.trace);
  const traced = useMemo(() => {
    const t = trace?.result?.nodes[node.id];
    return t ? new Set(t.contributed.map((r) => JSON.stringify(r.row))) : undefined;
  }, [trace, node.id]);
  const tracing = trace && trace.source === node.id ? trace.index : null;
  const ports = Object.entries(preview.out).filter(([port]) => port !== 'late' && port !== 'bad');
  const source = !info.hasInput;
  return (
    <div className="pv-node" data-testid="preview-node" data-node={node.id}>
      <h3 className="pv-node__title">
        {node.name || node.id}{' '}
        <span className="pv-dim">
          {info.label} · {source ? '' : `${plural(preview.rowsIn, 'row')} in · `}
          {sink ? `would write ${plural(f.rows, 'row')}` : `${plural(f.rows, 'row')} out`}
        </span>
      </h3>
      {sink && (
        <section className="pv-section">
          <h4 className="pv-section__head">
            Would write <span className="pv-dim">(the sink is off in a preview: nothing was written)</span>
          </h4>
          {(preview.wouldWrite ?? []).length === 0 ? (
            <p className="pv-empty">No rows reach this sink in the sample.</p>
          ) : (
            <RowsTable rows={preview.wouldWrite ?? []} testId="preview-rows-write" traced={traced} />
          )}
        </section>
      )}
      {!sink && ports.length === 0 && <p className="pv-empty">No rows out of this node in the sample.</p>}
      {ports.map(([port, o]) => (
        <section className="pv-section" key={port}>
          <h4 className="pv-section__head">
            {port === 'out' ? 'Output' : `Port ${port}`}{' '}
            <span className="pv-dim">
              ({plural(o.count, 'row')}
              {o.rows.length < o.count ? `, first ${o.rows.length} shown` : ''})
            </span>
          </h4>
          <RowsTable
            rows={o.rows}
            testId={`preview-rows-${port}`}
            traced={traced}
            tracing={port === 'out' ? tracing : null}
            {...(source && port === 'out' && ports.length === 1
              ? { onTrace: (i: number) => void traceRecordAt(node.id, i) }
              : {})}
          />
        </section>
      ))}
      {f.late > 0 && (
        <section className="pv-section pv-section--late" data-testid="preview-late">
          <h4 className="pv-section__head">
            Late records: {f.late} <span className="pv-dim">— each {LATE_REASON}</span>
          </h4>
          {preview.out.late ? (
            <RowsTable rows={preview.out.late.rows} testId="preview-rows-late" traced={traced} />
          ) : (
            <p className="pv-empty">
              Dropped (the window's late port is not connected; connect it to keep them and see them here).
            </p>
          )}
        </section>
      )}
      {f.bad > 0 && (
        <section className="pv-section pv-section--bad" data-testid="preview-bad">
          <h4 className="pv-section__head">
            Bad records: {f.bad}{' '}
            <span className="pv-dim">
              — they did not parse and were{' '}
              {node.config && (node.config as { onBadRecord?: string }).onBadRecord === 'dead-letter'
                ? 'sent to the bad port'
                : 'skipped'}
            </span>
          </h4>
          <table className="live-table pv-table" data-testid="preview-rows-bad">
            <thead>
              <tr>
                <th scope="col">where</th>
                <th scope="col">reason</th>
              </tr>
            </thead>
            <tbody>
              {preview.badRecords.map((b, i) => (
                <tr key={i}>
                  <td>{b.where}</td>
                  <td>{b.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
    </div>
  );
}
