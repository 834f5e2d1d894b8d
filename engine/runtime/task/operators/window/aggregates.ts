/**
 * The window's aggregate list compiled once into flat arrays, so the hot loop calls plain functions
 * without looking anything up per record. Accumulators come from the expression module
 * (`accumulatorFor`) and are JSON-serializable, which is what keyed state stores.
 *
 * Accumulators may be updated in place (`add`/`merge` of AVG do): every backend's snapshot is a copy
 * taken in its synchronous part, never a live reference. `copy` exists for callers that must keep
 * the stored value intact (session merging diffs old and new sessions). Accumulators are flat plain
 * data (numbers, or arrays/objects of numbers), so a shallow copy is a full one.
 */
import { accumulatorFor, compileAggregates, type ColumnTypes } from '../../../../sql/index.ts';
import type { Row } from '../../../../contracts/operator.ts';

type Acc = unknown;

export interface WindowAggregates {
  readonly aliases: readonly string[];
  /** Fresh accumulators, one per aggregate. */
  create(): Acc[];
  /** A private copy of stored accumulators, safe to update. */
  copy(stored: readonly Acc[]): Acc[];
  /** Adds one row to `accs`, in place. */
  add(accs: Acc[], row: Row): void;
  /** Merges `from` (left unchanged) into `into`, in place; session windows merging. */
  merge(into: Acc[], from: readonly Acc[]): void;
  /** Writes the results under their aliases into `out`. */
  results(accs: readonly Acc[], out: Row): void;
}

// COUNT(DISTINCT) accumulators are objects of value keys: still flat, a shallow copy is full.
function copyAcc(a: Acc): Acc {
  if (a === null || typeof a !== 'object') return a;
  return Array.isArray(a) ? a.slice() : { ...(a as Record<string, unknown>) };
}

export function compileWindowAggregates(text: string, inputTypes?: ColumnTypes): WindowAggregates {
  const calls = compileAggregates(text, inputTypes);
  const n = calls.length;
  const aliases = calls.map((c) => c.alias);
  const fns = calls.map((c) => accumulatorFor(c.fn, c.distinct));
  const inputs = calls.map((c) => c.input);
  return {
    aliases,
    create() {
      const accs = new Array<Acc>(n);
      for (let j = 0; j < n; j++) accs[j] = fns[j].create();
      return accs;
    },
    copy(stored) {
      const accs = new Array<Acc>(n);
      for (let j = 0; j < n; j++) accs[j] = copyAcc(stored[j]);
      return accs;
    },
    add(accs, row) {
      for (let j = 0; j < n; j++) accs[j] = fns[j].add(accs[j], inputs[j](row));
    },
    merge(into, from) {
      for (let j = 0; j < n; j++) into[j] = fns[j].merge(into[j], from[j]);
    },
    results(accs, out) {
      for (let j = 0; j < n; j++) out[aliases[j]] = fns[j].result(accs[j]);
    },
  };
}
