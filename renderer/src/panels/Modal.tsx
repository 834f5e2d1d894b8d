import type { ReactNode } from 'react';
import { openDialog } from '../ui/uiStore.ts';

export function Modal({
  title,
  children,
  testId,
  wide,
}: {
  title: string;
  children: ReactNode;
  testId: string;
  wide?: boolean;
}) {
  return (
    <div
      className="modal-backdrop"
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) openDialog(null);
      }}
    >
      <div className={`modal${wide ? ' modal--wide' : ''}`} role="dialog" aria-label={title} data-testid={testId}>
        <div className="modal__head">
          <h2>{title}</h2>
          <button type="button" className="btn btn--ghost" aria-label="Close" onClick={() => openDialog(null)}>
            ✕
          </button>
        </div>
        <div className="modal__body">{children}</div>
      </div>
    </div>
  );
}
