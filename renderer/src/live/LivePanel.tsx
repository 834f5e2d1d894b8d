/**
 * The live panel: a drawer under the canvas. Its header (always visible) holds the run controls
 * and tabs; the body shows one tab. Opens when a run starts; selecting an edge or a preview node
 * while a run is active switches to the data tab.
 */
import { useEffect, useRef, type PointerEvent as ReactPointerEvent } from 'react';
import './live.css';
import { useDoc } from '../state.ts';
import { useRun } from '../stores/runStore.ts';
import { uiStore } from '../ui/uiStore.ts';
import { liveStore, setOpen, setTab, useLive, type LiveTab } from '../stores/liveStore.ts';
import { LiveControls } from './LiveControls.tsx';
import { OverviewTab } from './OverviewTab.tsx';
import { CheckpointsTab } from './CheckpointsTab.tsx';
import { WatermarksTab } from './WatermarksTab.tsx';
import { StateTab } from './StateTab.tsx';
import { DataTab } from './DataTab.tsx';
import { MetricsTab } from './MetricsTab.tsx';
import { LogsTab } from './LogsTab.tsx';
import { FlinkTab } from '../flink/FlinkTab.tsx';
import { PreviewTab } from '../debug/PreviewTab.tsx';
import { useLog } from '../stores/logStore.ts';
import { previewSink } from '../../../engine/nodes/sink-preview/definition.ts';

const TABS: Array<[LiveTab, string]> = [
  ['overview', 'Overview'],
  ['metrics', 'Metrics'],
  ['checkpoints', 'Checkpoints'],
  ['watermarks', 'Watermarks'],
  ['state', 'State'],
  ['data', 'Data'],
  ['preview', 'Preview'],
  ['logs', 'Logs'],
  ['flink', 'Flink'],
];

function useDataTabOnSelection() {
  const selEdges = useDoc((s) => s.selectedEdges);
  const selNodes = useDoc((s) => s.selectedNodes);
  const nodes = useDoc((s) => s.job.nodes);
  const hasRun = useRun((s) => s.runId !== null);
  useEffect(() => {
    if (!hasRun) return;
    const previewSelected = [...selNodes].some((id) => nodes.find((n) => n.id === id)?.type === previewSink.type);
    if (selEdges.size > 0 || previewSelected) setTab('data');
  }, [selEdges, selNodes, nodes, hasRun]);
}

/** Opening or closing the drawer resizes the canvas: fit the graph again so no node hides under it. */
function useFitOnResize(open: boolean) {
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    // After React Flow's resize observer has seen the new canvas size (it runs after rAF callbacks).
    const t = setTimeout(() => uiStore.setState((s) => ({ fitRequest: s.fitRequest + 1 })), 60);
    return () => clearTimeout(t);
  }, [open]);
}

/** Drag the drawer's top edge to resize it; the graph is fitted again when the drag ends. */
function startResize(e: ReactPointerEvent<HTMLDivElement>) {
  e.preventDefault();
  const startY = e.clientY;
  const startH = liveStore.getState().height;
  const move = (ev: PointerEvent) => {
    const max = Math.max(160, window.innerHeight - 220);
    liveStore.setState({ height: Math.round(Math.min(max, Math.max(140, startH + startY - ev.clientY))) });
  };
  const up = () => {
    window.removeEventListener('pointermove', move);
    window.removeEventListener('pointerup', up);
    uiStore.setState((s) => ({ fitRequest: s.fitRequest + 1 }));
  };
  window.addEventListener('pointermove', move);
  window.addEventListener('pointerup', up);
}

export function LivePanel() {
  const open = useLive((s) => s.open);
  const tab = useLive((s) => s.tab);
  const height = useLive((s) => s.height);
  const completed = useLive((s) => s.checkpoints.filter((c) => c.status === 'completed').length);
  const problems = useLog((s) => s.entries.filter((e) => e.level !== 'info').length);
  useDataTabOnSelection();
  useFitOnResize(open);
  return (
    <section
      className={`live${open ? ' is-open' : ''}`}
      data-testid="live-panel"
      data-open={open ? 'true' : 'false'}
      style={open ? { height } : undefined}
    >
      {open && (
        <div className="live__resize" data-testid="live-resize" title="Drag to resize" onPointerDown={startResize} />
      )}
      <div className="live__bar">
        <button
          type="button"
          className="btn btn--ghost live__toggle"
          data-testid="live-toggle"
          title={open ? 'Hide the live panel' : 'Show the live panel'}
          onClick={() => setOpen(!liveStore.getState().open)}
        >
          {open ? '▾' : '▸'} Live
        </button>
        <nav className="live__tabs" role="tablist">
          {TABS.map(([id, label]) => (
            <button
              key={id}
              type="button"
              role="tab"
              aria-selected={open && tab === id}
              data-testid={`live-tab-${id}`}
              className={`live__tab${open && tab === id ? ' is-active' : ''}`}
              onClick={() => setTab(id)}
            >
              {label}
              {id === 'checkpoints' && completed > 0 ? <span className="live__badge">{completed}</span> : null}
              {id === 'logs' && problems > 0 ? (
                <span className="live__badge live__badge--warn" data-testid="logs-badge">
                  {problems}
                </span>
              ) : null}
            </button>
          ))}
        </nav>
        <LiveControls />
      </div>
      {open && (
        // Focusable so a keyboard can scroll a long table (WCAG scrollable-region-focusable).
        <div className="live__body" data-testid={`live-body-${tab}`} tabIndex={0} role="region" aria-label="Live panel">
          {tab === 'overview' && <OverviewTab />}
          {tab === 'metrics' && <MetricsTab />}
          {tab === 'checkpoints' && <CheckpointsTab />}
          {tab === 'watermarks' && <WatermarksTab />}
          {tab === 'state' && <StateTab />}
          {tab === 'data' && <DataTab />}
          {tab === 'preview' && <PreviewTab />}
          {tab === 'logs' && <LogsTab />}
          {tab === 'flink' && <FlinkTab />}
        </div>
      )}
    </section>
  );
}
