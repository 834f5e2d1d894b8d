/**
 * The number of values in a COUNT(DISTINCT x) accumulator (an object keyed by each value's JSON
 * text, aggregates.ts and retract-aggregates.ts), without counting its keys on every result.
 *
 * Why: `Object.keys(acc).length` is O(distinct values), and an aggregate computes its result
 * twice per record (before and after, aggregate-operator.ts). Nexmark q15 keeps thousands of
 * bidders and auctions per day: counting them per record made it quadratic (262 events/s on the
 * heap backend, where the same object stays live across records).
 *
 * The count is kept beside the object in a WeakMap, so the state format stays the plain JSON
 * object: snapshots, restores and other backends see exactly what they saw before. An object not
 * in the map (new, restored, copied, merged into) is counted once, then kept up to date.
 * Rule this relies on: a distinct accumulator changes only through its accumulator's `add`,
 * `retract` and `merge`, which report every change here.
 */
const sizes = new WeakMap<object, number>();

/**
 * A value's key in a distinct accumulator: its JSON text (so 1 and '1' stay apart). A finite
 * number's text is written without JSON.stringify, which costs twice as much for the same text.
 */
export function distinctKey(v: unknown): string {
  return typeof v === 'number' && Number.isFinite(v) ? `${v}` : JSON.stringify(v);
}

/** How many distinct values `acc` holds. */
export function distinctCount(acc: object): number {
  let n = sizes.get(acc);
  if (n === undefined) {
    n = Object.keys(acc).length;
    sizes.set(acc, n);
  }
  return n;
}

/** `acc` gained (+1) or lost (-1) one value: a known count follows. */
export function distinctCountChanged(acc: object, delta: 1 | -1): void {
  const n = sizes.get(acc);
  if (n !== undefined) sizes.set(acc, n + delta);
}

/** `acc` changed by more than one value (a merge): the next count recounts it. */
export function distinctCountUnknown(acc: object): void {
  sizes.delete(acc);
}
