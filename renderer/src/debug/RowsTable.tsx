/**
 * One table of preview rows (a node's output on one port, or what a sink would write), the same
 * table the live sample and the committed output draw (`live-table--data`), with the changelog
 * kind, the event time and, on a source's rows, a "Trace" action per row.
 */
import { useMemo } from 'react';
import { cellText } from '../model/cellText.ts';
import type { PreviewRow } from './previewStore.ts';

export function RowsTable(p: {
  rows: readonly PreviewRow[];
  testId: string;
  /** Rows the traced record contributed to, by their JSON (marked in the table). */
  traced?: ReadonlySet<string>;
  /** The Trace action for row i (sources only); the row being traced is marked. */
  onTrace?: (index: number) => void;
  tracing?: number | null;
}) {
  const columns = useMemo(() => {
    const cols = new Set<string>();
    for (const r of p.rows) for (const k of Object.keys(r.row)) cols.add(k);
    return [...cols];
  }, [p.rows]);
  const kinds = p.rows.some((r) => r.kind);
  return (
    <table className="live-table live-table--data pv-table" data-testid={p.testId} data-rows={p.rows.length}>
      <thead>
        <tr>
          <th scope="col">#</th>
          {kinds && <th scope="col">kind</th>}
          {columns.map((c) => (
            <th key={c} scope="col">
              {c}
            </th>
          ))}
          {p.onTrace && (
            <th scope="col">
              <span className="pv-sr">Trace</span>
            </th>
          )}
        </tr>
      </thead>
      <tbody>
        {p.rows.map((r, i) => {
          const traced = p.traced?.has(JSON.stringify(r.row)) || p.tracing === i;
          return (
            <tr key={i} className={traced ? 'is-traced' : undefined} data-traced={traced ? 'true' : undefined}>
              <td className="pv-table__n">{i}</td>
              {kinds && <td>{r.kind ?? ''}</td>}
              {columns.map((c) => (
                <td key={c} title={cellText(r.row[c], true)}>
                  {cellText(r.row[c])}
                </td>
              ))}
              {p.onTrace && (
                <td>
                  <button
                    type="button"
                    className="btn pv-table__trace"
                    data-testid={`trace-row-${i}`}
                    aria-label={`Trace record ${i}`}
                    title="Trace this record: the path it takes and the rows it leads to, node by node"
                    onClick={() => p.onTrace!(i)}
                  >
                    Trace
                  </button>
                </td>
              )}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
