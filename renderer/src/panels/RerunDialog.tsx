/**
 * "This job already wrote output": the re-run question in the app's words, with its three choices
 * as buttons (run/rerunQuestion.ts). Escape, the close button and a click outside cancel.
 */
import { useEffect } from 'react';
import { docStore } from '../state.ts';
import { answerRerun, useRerun } from '../run/rerunQuestion.ts';

export function RerunDialog() {
  const q = useRerun((s) => s.question);
  useEffect(() => {
    if (!q) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') answerRerun('cancel');
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [q]);
  if (!q) return null;
  const node = docStore.getState().job.nodes.find((n) => n.id === q.sink);
  const sinkName = node?.name || q.sink;
  return (
    <div
      className="modal-backdrop"
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) answerRerun('cancel');
      }}
    >
      <div
        className="modal modal--wide"
        role="dialog"
        aria-modal="true"
        aria-labelledby="rerun-title"
        data-testid="rerun-dialog"
      >
        <div className="modal__head">
          <h2 id="rerun-title">This job already wrote output</h2>
          <button type="button" className="btn btn--ghost" aria-label="Cancel" onClick={() => answerRerun('cancel')}>
            ✕
          </button>
        </div>
        <div className="modal__body">
          {q.folder ? (
            <p data-testid="rerun-text">
              <b>{sinkName}</b> holds what an earlier run committed ({q.files} file{q.files === 1 ? '' : 's'} in{' '}
              <code>{q.folder}</code>). Running from the start would write everything a second time.
            </p>
          ) : (
            <p data-testid="rerun-text">{q.detail}</p>
          )}
          <p className="dim">Nothing has changed yet.</p>
          <div className="modal__actions" style={{ flexWrap: 'wrap' }}>
            <button type="button" className="btn" data-testid="rerun-cancel" onClick={() => answerRerun('cancel')}>
              Cancel
            </button>
            <button type="button" className="btn" data-testid="rerun-clear" onClick={() => answerRerun('clear')}>
              Delete that output and start over
            </button>
            <button
              type="button"
              className="btn btn--primary"
              data-testid="rerun-resume"
              autoFocus
              onClick={() => answerRerun('resume')}
            >
              Continue from the latest checkpoint
            </button>
          </div>
        </div>
      </div>
    </div>
  );
}
