/**
 * What the debugging features draw over the canvas: the back-pressure legend while a running job
 * reports back-pressure (colour is never the only sign: each edge's label says the percent), and
 * the trace banner while a record is traced (with its Clear button; Escape clears it too).
 */
import { useEffect } from 'react';
import './debug.css';
import { useDoc } from '../state.ts';
import { BP_COLORS, useAnyBackPressure } from './backPressure.ts';
import { BP_HIGH, BP_LOW } from '../stores/backPressureLevels.ts';
import { clearTrace, tracedNodes, usePreview } from './previewStore.ts';

function BackPressureLegend() {
  const any = useAnyBackPressure();
  if (!any) return null;
  return (
    <div className="bp-legend" data-testid="bp-legend" role="note" aria-label="Back-pressure legend">
      <span>Edge colour: its sender's back-pressured time</span>
      <span>
        <span className="bp-legend__swatch" style={{ background: BP_COLORS.low }} />
        {BP_LOW * 100}–{BP_HIGH * 100}%
      </span>
      <span>
        <span className="bp-legend__swatch" style={{ background: BP_COLORS.high }} />
        over {BP_HIGH * 100}%
      </span>
    </div>
  );
}

function TraceBanner() {
  const trace = usePreview((s) => s.trace);
  const nodes = useDoc((s) => s.job.nodes);
  const on = tracedNodes(trace);
  const active = trace !== null;
  useEffect(() => {
    if (!active) return;
    // Captured first and consumed: this Escape clears the trace only; the next one the selection.
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      e.stopPropagation();
      clearTrace();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [active]);
  if (!trace || !on) return null;
  const source = nodes.find((n) => n.id === trace.source);
  return (
    <div className="trace-banner" data-testid="trace-banner" role="status">
      Tracing record {trace.index} of {source?.name || trace.source}: {on.size} nodes on its path
      <button type="button" className="btn" data-testid="trace-banner-clear" onClick={clearTrace} title="Esc">
        Clear trace
      </button>
    </div>
  );
}

export function CanvasOverlays() {
  return (
    <>
      <BackPressureLegend />
      <TraceBanner />
    </>
  );
}
