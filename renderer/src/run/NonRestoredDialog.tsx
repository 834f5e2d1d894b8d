/** "Restore anyway?": the nodes whose checkpointed state a restore would drop (nonRestoredState.ts). */
import { useEffect } from 'react';
import { useDoc } from '../state.ts';
import { answerNonRestored, useNonRestored } from './nonRestoredState.ts';
import './nonRestored.css';

export function NonRestoredDialog() {
  const question = useNonRestored((s) => s.question);
  const names = useDoc((s) => s.job.nodes);
  useEffect(() => {
    if (!question) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') answerNonRestored(false);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [question]);
  if (!question) return null;
  const checkpoint = /cannot restore (checkpoint \d+)/.exec(question.message)?.[1] ?? 'the checkpoint';
  return (
    <div className="modal-backdrop">
      <div
        className="modal"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby="non-restored-title"
        data-testid="non-restored-dialog"
      >
        <div className="modal__head">
          <h2 id="non-restored-title">Drop state that has no node?</h2>
        </div>
        <div className="modal__body">
          <p className="non-restored__text">
            {checkpoint[0].toUpperCase() + checkpoint.slice(1)} holds state of{' '}
            {question.nodes.length === 1 ? 'a node' : `${question.nodes.length} nodes`} this job no longer has.
            Restoring drops that state for good; everything else is restored exactly.
          </p>
          <ul className="non-restored__nodes" data-testid="non-restored-nodes">
            {question.nodes.map((id) => {
              // A node removed from the canvas has only its id; a renamed one shows its name too.
              const node = names.find((n) => n.id === id);
              return (
                <li key={id} data-node={id}>
                  <code>{id}</code>
                  {node?.name && node.name !== id ? <span> ({node.name})</span> : null}
                </li>
              );
            })}
          </ul>
          <div className="modal__actions">
            <button
              type="button"
              className="btn"
              data-testid="non-restored-cancel"
              autoFocus
              onClick={() => answerNonRestored(false)}
            >
              Cancel
            </button>
            <button
              type="button"
              className="btn btn--danger"
              data-testid="non-restored-confirm"
              onClick={() => answerNonRestored(true)}
            >
              Restore anyway
            </button>
          </div>
        </div>
      </div>
    </div>
  );
}
