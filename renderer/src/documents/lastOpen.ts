/**
 * Which document this window had open, so a reload reopens it instead of the start-up example.
 * sessionStorage on purpose: it survives a reload of the same tab or Electron window, while a
 * fresh `npm start` (a new session) still opens what the host asks for.
 */
import type { DocStore } from '../model/docStore.ts';

const KEY = 'weir.open.v1';

/** undefined: nothing remembered; null: an untitled document was open. */
export function readLastOpen(): string | null | undefined {
  try {
    const raw = sessionStorage.getItem(KEY);
    if (raw === null) return undefined;
    const v = JSON.parse(raw) as { path?: unknown };
    return typeof v.path === 'string' ? v.path : null;
  } catch {
    return undefined;
  }
}

export function startRememberingOpen(store: DocStore): () => void {
  const write = (path: string | null) => {
    try {
      sessionStorage.setItem(KEY, JSON.stringify({ path }));
    } catch {
      /* storage disabled: a reload opens the default */
    }
  };
  write(store.getState().path);
  return store.subscribe((s, prev) => {
    if (s.path !== prev.path || s.docVersion !== prev.docVersion) write(s.path);
  });
}
