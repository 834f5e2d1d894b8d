/**
 * The live panel's Preview tab: run the open document over the first N records of each source with
 * sinks off (Arroyo's preview), see each node's rows, late and bad records, and trace one record
 * through the pipeline. The canvas shows each node's figures meanwhile (PreviewBadge).
 */
import { useState } from 'react';
import './debug.css';
import { docStore, useDoc } from '../state.ts';
import { typeInfo } from '../model/catalog.ts';
import { describeProblem, problemLine } from '../model/problemText.ts';
import { usePreview, resetPreview } from './previewStore.ts';
import { runPreview, setPreviewRecords } from './previewActions.ts';
import { failedNodes, nodeFigures, pathField, plural, withoutPath } from './previewFigures.ts';
import { NodeRows } from './NodeRows.tsx';
import { TracePanel } from './TracePanel.tsx';

function RecordsInput() {
  const records = usePreview((s) => s.records);
  const [text, setText] = useState(String(records));
  return (
    <label className="pv-records">
      Records per source{' '}
      <input
        type="number"
        min={1}
        max={10000}
        value={text}
        data-testid="preview-records"
        onChange={(e) => {
          setText(e.target.value);
          setPreviewRecords(Number(e.target.value));
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') void runPreview();
        }}
      />
    </label>
  );
}

function Summary() {
  const s = usePreview((x) => x);
  const stale = s.stale;
  if (s.status === 'running') return <span className="pv-dim">Previewing…</span>;
  if (!s.result) return null;
  const sources = Object.values(s.result.sources);
  const read = sources.reduce((n, x) => n + x.records, 0);
  return (
    <span className="pv-summary" data-testid="preview-summary" role="status">
      <b>Sinks off: nothing was written.</b> Read {plural(read, 'record')} from {plural(sources.length, 'source')} in{' '}
      {s.result.elapsedMs} ms
      {s.roundTripMs !== null ? ` (${s.roundTripMs} ms here)` : ''}
      {stale && (
        <span className="pv-stale" data-testid="preview-stale">
          {' '}
          · the pipeline changed since: preview again
        </span>
      )}
    </span>
  );
}

function Failure() {
  const error = usePreview((s) => s.error);
  const problems = usePreview((s) => s.problems);
  const job = useDoc((s) => s.job);
  if (!error) return null;
  const at = problems.length === 0 ? [...failedNodes(job, error, problems).keys()][0] : undefined;
  const node = at ? job.nodes.find((n) => n.id === at) : undefined;
  const field = pathField(error);
  return (
    <div className="pv-error" data-testid="preview-error" role="alert">
      {node ? (
        <>
          Preview failed at{' '}
          <button type="button" className="pv-trace__node" onClick={() => docStore.getState().select([node.id])}>
            {node.name || node.id}
          </button>
          {field ? ` (${field})` : ''}: {withoutPath(error)}
        </>
      ) : (
        <>Preview failed: {error}</>
      )}
      {problems.length > 0 && (
        <ul>
          {problems.map((p, i) => {
            const t = describeProblem(job, p);
            return (
              <li key={i}>
                <button
                  type="button"
                  className="pv-trace__node"
                  onClick={() => t.nodeId && docStore.getState().select([t.nodeId])}
                >
                  {problemLine(t)}
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}

function NodeList({ selected }: { selected: string | null }) {
  const nodes = useDoc((s) => s.job.nodes);
  const result = usePreview((s) => s.result);
  if (!result) return null;
  return (
    <nav className="pv-nodes" aria-label="Nodes of the preview">
      <ul>
        {nodes.map((n) => {
          const p = result.nodes[n.id];
          const f = p ? nodeFigures(p, typeInfo(n.type).group === 'Sinks') : null;
          return (
            <li key={n.id}>
              <button
                type="button"
                className={`pv-nodes__item${selected === n.id ? ' is-active' : ''}`}
                aria-current={selected === n.id ? 'true' : undefined}
                data-testid={`preview-pick-${n.id}`}
                onClick={() => docStore.getState().select([n.id])}
              >
                <span>{n.name || n.id}</span>
                <span className="pv-dim">
                  {f ? f.rows : '–'}
                  {f?.late ? ` · ${f.late} late` : ''}
                  {f?.bad ? ` · ${f.bad} bad` : ''}
                </span>
              </button>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

export function PreviewTab() {
  const status = usePreview((s) => s.status);
  const result = usePreview((s) => s.result);
  const trace = usePreview((s) => s.trace);
  const seq = usePreview((s) => s.seq);
  const selected = useDoc((s) => (s.selectedNodes.size === 1 ? [...s.selectedNodes][0] : null));
  const node = useDoc((s) => (selected ? s.job.nodes.find((n) => n.id === selected) : undefined));
  const preview = node && result ? result.nodes[node.id] : undefined;
  return (
    <div className="pv" data-testid="preview-tab" data-status={status} data-seq={seq}>
      <div className="pv-head">
        <RecordsInput />
        <button
          type="button"
          className="btn btn--primary"
          data-testid="preview-run"
          disabled={status === 'running'}
          onClick={() => void runPreview()}
          title="Run the pipeline on the first N records of each source, sinks off (P)"
        >
          {result ? 'Preview again' : 'Run preview'}
        </button>
        {(result || status === 'error') && (
          <button type="button" className="btn" data-testid="preview-clear" onClick={resetPreview}>
            Clear
          </button>
        )}
        <Summary />
      </div>
      <Failure />
      {status === 'idle' && (
        <p className="pv-empty">
          A preview runs this pipeline (saved or not) on the first records of each source with every sink off: nothing
          is written, no checkpoint is taken. Each node then shows its rows here and its counts on the canvas.
        </p>
      )}
      {result && (
        <div className={`pv-body${trace ? ' has-trace' : ''}`}>
          <NodeList selected={selected} />
          <div className="pv-main">
            {node && preview ? (
              <NodeRows node={node} preview={preview} />
            ) : (
              <p className="pv-empty" data-testid="preview-pick-hint">
                Select a node (on the canvas or in the list) to see its rows.
              </p>
            )}
          </div>
          {trace && <TracePanel trace={trace} />}
        </div>
      )}
    </div>
  );
}
