/**
 * Restore from a chosen checkpoint or savepoint: the host lists what is retained for the open job
 * (id, kind, time, size); picking one starts a run from it.
 */
import { useEffect, useRef, useState } from 'react';
import type { RetainedCheckpoint } from '../../../engine/contracts/checkpoint.ts';
import { listRetained, restoreFrom } from './liveActions.ts';
import { bytes } from './format.ts';

export function RestoreMenu({ onClose }: { onClose: () => void }) {
  const [list, setList] = useState<RetainedCheckpoint[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const box = useRef<HTMLDivElement>(null);
  // A popover closes on Escape and on any press outside it (the canvas, another panel), as menus do.
  // Capture phase: React Flow's pane stops the pointerdown before it would bubble to the window.
  // Subscribed once, calling the latest onClose through a ref: the Escape shortcut re-renders the
  // parent during the same keydown, and a listener removed mid-dispatch would never be called.
  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') close.current();
    };
    const onDown = (e: PointerEvent) => {
      const t = e.target;
      if (!(t instanceof Element)) return;
      // The toggle button sits next to the menu and toggles it itself.
      if (box.current && !box.current.contains(t) && !t.closest('[data-testid="ctl-restore"]')) close.current();
    };
    window.addEventListener('keydown', onKey);
    window.addEventListener('pointerdown', onDown, true);
    return () => {
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('pointerdown', onDown, true);
    };
  }, []);
  useEffect(() => {
    let live = true;
    listRetained().then(
      (l) => {
        if (live) setList(l);
      },
      (e: unknown) => {
        if (live) setError(String((e as Error)?.message ?? e));
      },
    );
    return () => {
      live = false;
    };
  }, []);
  return (
    <div className="restore-menu" data-testid="restore-list" role="menu" ref={box}>
      <div className="restore-menu__head">
        Restore from…
        <button type="button" className="btn btn--ghost" onClick={onClose} aria-label="Close">
          ×
        </button>
      </div>
      {error && <div className="restore-menu__empty">Cannot list checkpoints: {error}</div>}
      {!error && !list && <div className="restore-menu__empty">Loading…</div>}
      {list && list.length === 0 && (
        <div className="restore-menu__empty">
          Nothing retained yet. Checkpoints are kept in the job's checkpoint folder (memory backend: savepoints only).
        </div>
      )}
      {list?.map((c) => (
        <button
          type="button"
          key={c.path}
          className="restore-menu__item"
          role="menuitem"
          data-testid={`restore-item-${c.kind}-${c.id}`}
          title={c.path}
          onClick={() => {
            onClose();
            void restoreFrom(c.path);
          }}
        >
          <span className={`kind kind--${c.kind}`}>{c.kind === 'savepoint' ? 'savepoint' : 'checkpoint'}</span>
          <b>#{c.id}</b>
          <span>{new Date(c.time).toLocaleString()}</span>
          <span className="restore-menu__size">{bytes(c.bytes)}</span>
        </button>
      ))}
    </div>
  );
}
