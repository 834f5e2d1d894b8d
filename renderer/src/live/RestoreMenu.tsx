/**
 * Restore from a chosen checkpoint or savepoint: the host lists what is retained for the open job
 * (id, kind, time, size); picking one starts a run from it.
 */
import { useEffect, useState } from 'react';
import type { RetainedCheckpoint } from '../../../engine/contracts/checkpoint.ts';
import { listRetained, restoreFrom } from './liveActions.ts';
import { bytes } from './format.ts';

export function RestoreMenu({ onClose }: { onClose: () => void }) {
  const [list, setList] = useState<RetainedCheckpoint[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    listRetained().then((l) => { if (live) setList(l); }, (e: unknown) => { if (live) setError(String((e as Error)?.message ?? e)); });
    return () => { live = false; };
  }, []);
  return (
    <div className="restore-menu" data-testid="restore-list" role="menu">
      <div className="restore-menu__head">Restore from…<button type="button" className="btn btn--ghost" onClick={onClose} aria-label="Close">×</button></div>
      {error && <div className="restore-menu__empty">Cannot list checkpoints: {error}</div>}
      {!error && !list && <div className="restore-menu__empty">Loading…</div>}
      {list && list.length === 0 && <div className="restore-menu__empty">Nothing retained yet. Checkpoints are kept in the job's checkpoint folder (memory backend: savepoints only).</div>}
      {list?.map((c) => (
        <button type="button" key={c.path} className="restore-menu__item" role="menuitem" data-testid={`restore-item-${c.kind}-${c.id}`}
          title={c.path} onClick={() => { onClose(); void restoreFrom(c.path); }}>
          <span className={`kind kind--${c.kind}`}>{c.kind === 'savepoint' ? 'savepoint' : 'checkpoint'}</span>
          <b>#{c.id}</b>
          <span>{new Date(c.time).toLocaleString()}</span>
          <span className="restore-menu__size">{bytes(c.bytes)}</span>
        </button>
      ))}
    </div>
  );
}
