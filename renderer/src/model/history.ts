/**
 * Undo/redo for every edit of a document. Plain TypeScript, framework-free.
 *
 * The document is an immutable value (each edit returns a new object sharing unchanged parts), so
 * the history keeps whole snapshots: undo can never drift from what the user saw, whatever the
 * edit was (add, connect, move, delete, paste, config or settings). Memory is small because
 * snapshots share structure.
 *
 * Invariants:
 * - `present` is always the document on screen; `past` is oldest first, `future` nearest first.
 * - A new edit clears `future` (no branching).
 * - Consecutive edits with the same non-empty `coalesceKey` within `coalesceMs` merge into one
 *   step (typing in one field is one undo step, not one per key stroke).
 * - An edit that returns the identical object is not recorded.
 */
export interface HistoryEntry<D> {
  doc: D;
  label: string;
}

export interface HistoryState<D> {
  past: HistoryEntry<D>[];
  present: D;
  presentLabel: string;
  future: HistoryEntry<D>[];
  /** Key and time of the last edit, for coalescing. */
  lastKey: string | null;
  lastTime: number;
}

export interface HistoryOptions {
  limit?: number;
  coalesceMs?: number;
}

export function createHistory<D>(doc: D): HistoryState<D> {
  return { past: [], present: doc, presentLabel: '', future: [], lastKey: null, lastTime: 0 };
}

export function record<D>(
  h: HistoryState<D>,
  next: D,
  label: string,
  opts: HistoryOptions & { coalesceKey?: string; now?: number } = {},
): HistoryState<D> {
  if (next === h.present) return h;
  const now = opts.now ?? Date.now();
  const limit = opts.limit ?? 500;
  const coalesceMs = opts.coalesceMs ?? 1000;
  const key = opts.coalesceKey ?? null;
  if (key !== null && key === h.lastKey && now - h.lastTime <= coalesceMs && h.past.length > 0) {
    return { ...h, present: next, presentLabel: label, future: [], lastTime: now };
  }
  const past = [...h.past, { doc: h.present, label }];
  if (past.length > limit) past.splice(0, past.length - limit);
  return { past, present: next, presentLabel: label, future: [], lastKey: key, lastTime: now };
}

export function canUndo<D>(h: HistoryState<D>): boolean {
  return h.past.length > 0;
}
export function canRedo<D>(h: HistoryState<D>): boolean {
  return h.future.length > 0;
}

/** The label of the step undo would revert (for the menu: "Undo connect"). */
export function undoLabel<D>(h: HistoryState<D>): string | null {
  return h.past.length ? h.past[h.past.length - 1].label : null;
}
export function redoLabel<D>(h: HistoryState<D>): string | null {
  return h.future.length ? h.future[0].label : null;
}

export function undo<D>(h: HistoryState<D>): HistoryState<D> {
  if (!h.past.length) return h;
  const prev = h.past[h.past.length - 1];
  return {
    past: h.past.slice(0, -1),
    present: prev.doc,
    presentLabel: '',
    future: [{ doc: h.present, label: prev.label }, ...h.future],
    lastKey: null,
    lastTime: 0,
  };
}

export function redo<D>(h: HistoryState<D>): HistoryState<D> {
  if (!h.future.length) return h;
  const [next, ...rest] = h.future;
  return {
    past: [...h.past, { doc: h.present, label: next.label }],
    present: next.doc,
    presentLabel: next.label,
    future: rest,
    lastKey: null,
    lastTime: 0,
  };
}

/**
 * Replace the present without an undo step: used while a drag is in progress so that every
 * intermediate position is not a step; the drag's end records one step from the drag's start.
 */
export function replacePresent<D>(h: HistoryState<D>, doc: D): HistoryState<D> {
  return doc === h.present ? h : { ...h, present: doc };
}
