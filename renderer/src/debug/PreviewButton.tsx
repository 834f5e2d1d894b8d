/**
 * The toolbar's Preview button. Up to 1400 px wide it shows only its eye icon (the name it keeps
 * for screen readers and its tooltip), so the toolbar still fits the job's whole name at 1280 px.
 */
import './debug.css';
import { previewSink } from '../../../engine/nodes/sink-preview/definition.ts';
import { runPreview } from './previewActions.ts';
import { usePreview } from './previewStore.ts';

export function PreviewButton() {
  const running = usePreview((s) => s.status === 'running');
  return (
    <button
      type="button"
      className="btn pv-button"
      data-testid="preview"
      aria-label="Preview"
      title="Preview: run this pipeline on the first records of each source, sinks off, nothing written (P)"
      disabled={running}
      onClick={() => {
        void runPreview();
      }}
    >
      <svg
        width={15}
        height={15}
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth={1.8}
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden="true"
      >
        <path d={previewSink.palette.icon} />
      </svg>
      <span className="pv-button__label">Preview</span>
    </button>
  );
}
