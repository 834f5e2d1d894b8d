/**
 * Runs that belong to another document than the open one. Opening a document (New, Open, an
 * example, a drop) detaches the live view from the run it showed: that job keeps running, but its
 * events no longer reach the stores (they would otherwise adopt them, as they adopt the first event
 * of a run the panel started), so the new document starts with a clean live panel. Reopening the
 * run's own document re-attaches it (live/recoverRun.ts).
 */
const detached = new Set<string>();

export function detachRun(runId: string): void {
  detached.add(runId);
}

export function reattachRun(runId: string): void {
  detached.delete(runId);
}

/** True for events of a run the open document does not own. */
export function isDetachedRun(runId: string): boolean {
  return detached.has(runId);
}
