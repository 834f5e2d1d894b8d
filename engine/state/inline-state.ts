/**
 * The canonical inline form of a keyed-state snapshot (`KeyedStateSnapshot.inline`), used when
 * snapshots travel to the host (memory storage). Any backend can restore it, so a job can switch
 * state backends between runs.
 */
export const INLINE_STATE_FORMAT = 'weir.state/v1';

export interface InlineState {
  /** Optional: the heap backend's inline snapshots carry only `tables`. */
  format?: typeof INLINE_STATE_FORMAT;
  /** table name -> [stateKey, value] pairs */
  tables: Record<string, Array<[string, unknown]>>;
}

export function isInlineState(value: unknown): value is InlineState {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as InlineState;
  return (
    (v.format === undefined || v.format === INLINE_STATE_FORMAT) && typeof v.tables === 'object' && v.tables !== null
  );
}
