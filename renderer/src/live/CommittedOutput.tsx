/**
 * The committed-output viewer of a file or PostgreSQL sink, in the Data tab: where the sink writes
 * (an absolute folder, with "Open folder" where the shell has a file manager, or `schema.table`)
 * and the rows committed there, newest first, a page at a time. Only committed rows: what waits
 * for the next checkpoint is counted in Overview, not shown here.
 */
import { useMemo, useState } from 'react';
import './committed.css';
import { host, hostInfo } from '../host.ts';
import { notify } from '../ui/uiStore.ts';
import { useCommittedOutput } from './useCommittedOutput.ts';
import { count } from './format.ts';
import { cellText } from './cellText.ts';

export const PAGE_ROWS = 50;

function openFolder(folder: string): void {
  host()
    .openFolder({ folder })
    .catch((e: unknown) => notify(`Could not open ${folder}: ${String((e as Error)?.message ?? e)}`, 'error'));
}

export function CommittedOutput({ nodeId, label }: { nodeId: string; label: string }) {
  const [offset, setOffset] = useState(0);
  const { output, error, loading } = useCommittedOutput(nodeId, offset, PAGE_ROWS);
  const columns = useMemo(() => {
    const cols = new Set<string>();
    for (const r of output?.rows ?? []) for (const k of Object.keys(r)) cols.add(k);
    return [...cols];
  }, [output]);
  const total = output?.total ?? 0;
  const shown = output?.rows.length ?? 0;
  return (
    <div
      className="committed"
      data-testid="committed-output"
      data-node={nodeId}
      data-total={output ? total : ''}
      data-offset={offset}
      data-rows={shown}
      data-location={output?.location ?? ''}
    >
      <div className="committed__head">
        <span>
          Committed output of <b>{label}</b>
          {output && (
            <>
              {' '}
              in{' '}
              <code className="committed__where" data-testid="committed-location" title={output.location}>
                {output.location}
              </code>
            </>
          )}
        </span>
        {output?.kind === 'folder' && hostInfo()?.nativeDialogs && (
          <button type="button" className="btn" data-testid="open-folder" onClick={() => openFolder(output.location)}>
            Open folder
          </button>
        )}
        {output && (
          <span className="committed__count" data-testid="committed-count">
            {total === 0
              ? 'nothing committed yet'
              : `rows ${count(offset + 1)}–${count(offset + shown)} of ${count(total)}, newest first`}
            {output.files !== undefined && total > 0 ? ` (${count(output.files)} files)` : ''}
            {loading ? ' …' : ''}
          </span>
        )}
        <span className="committed__pager">
          <button
            type="button"
            className="btn"
            data-testid="committed-newer"
            disabled={offset === 0}
            onClick={() => setOffset(Math.max(0, offset - PAGE_ROWS))}
          >
            ‹ Newer
          </button>
          <button
            type="button"
            className="btn"
            data-testid="committed-older"
            disabled={offset + shown >= total}
            onClick={() => setOffset(offset + PAGE_ROWS)}
          >
            Older ›
          </button>
        </span>
      </div>
      {error && (
        <div className="data-tab__error" data-testid="committed-error">
          Cannot read the committed output: {error}
        </div>
      )}
      {output?.message && <div className="committed__note">{output.message}</div>}
      {shown > 0 && (
        <table className="live-table live-table--data" data-testid="committed-table">
          <thead>
            <tr>
              {columns.map((c) => (
                <th key={c} scope="col">
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {output!.rows.map((r, i) => (
              <tr key={offset + i}>
                {columns.map((c) => (
                  <td key={c} title={cellText(r[c], true)}>
                    {cellText(r[c])}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
