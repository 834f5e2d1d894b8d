/**
 * Recovery of unsaved work: while the document is dirty it is written to localStorage (debounced);
 * on the next start (after a crash, a reload or a closed tab) it is restored with its path, still
 * marked dirty. Saving or opening another clean document clears it.
 */
import type { JobDocument } from '../../../engine/graph/types.ts';
import type { DocStore } from '../model/docStore.ts';
import { isDirty } from '../model/docStore.ts';

const KEY = 'weir.autosave.v1';

export interface Autosave {
  job: JobDocument;
  path: string | null;
  time: number;
}

export function readAutosave(): Autosave | null {
  try {
    const raw = localStorage.getItem(KEY);
    if (!raw) return null;
    const v = JSON.parse(raw) as Autosave;
    return v && v.job && v.job.format === 'weir.job/v1' && Array.isArray(v.job.nodes) ? v : null;
  } catch {
    return null;
  }
}

export function clearAutosave(): void {
  try {
    localStorage.removeItem(KEY);
  } catch {
    /* nothing to clear */
  }
}

/** Keep localStorage in step with the store; returns the unsubscribe function. */
export function startAutosave(store: DocStore, delayMs = 300): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const flush = () => {
    timer = null;
    const s = store.getState();
    if (!isDirty(s)) {
      clearAutosave();
      return;
    }
    try {
      localStorage.setItem(KEY, JSON.stringify({ job: s.job, path: s.path, time: Date.now() } satisfies Autosave));
    } catch {
      /* quota: recovery is best effort, saving still works */
    }
  };
  const unsub = store.subscribe((s, prev) => {
    if (s.job === prev.job && s.saved === prev.saved) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(flush, delayMs);
  });
  // A reload right after an edit must not lose it: flush synchronously when the page goes away.
  const onHide = () => {
    if (timer) {
      clearTimeout(timer);
      flush();
    }
  };
  window.addEventListener('pagehide', onHide);
  return () => {
    unsub();
    window.removeEventListener('pagehide', onHide);
    if (timer) clearTimeout(timer);
  };
}
