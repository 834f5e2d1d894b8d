/**
 * The window's aggregate list compiled once into flat arrays, so the hot loop calls plain functions
 * without looking anything up per record. Accumulators come from the expression module
 * (`accumulatorFor`) and are JSON-serializable, which is what keyed state stores.
 *
 * Accumulators may be updated in place (`add`/`merge` of AVG do): every backend's snapshot is a copy
 * taken in its synchronous part, never a live reference. `copy` exists for callers that must keep
 * the stored value intact (session merging diffs old and new sessions). Accumulators are flat plain
 * data (numbers, or arrays/objects of numbers), so a shallow copy is a full one.
 *
 * Over a changelog input (`{ changelog: true }`) the accumulators are the retracting ones
 * (engine/sql/retract-aggregates.ts) and one hidden COUNT(*) follows the user's aggregates: the
 * number of rows in the group or window, which tells when it is empty (Flink's record counter in
 * GroupAggFunction). Append-only plans keep their accumulators and state layout unchanged.
 */
import {
  accumulatorFor,
  compileAggregates,
  retractingAccumulatorFor,
  type ColumnTypes,
  type RetractingAccumulator,
} from '../../../../sql/index.ts';
import type { Row } from '../../../../contracts/operator.ts';

type Acc = unknown;

export interface WindowAggregates {
  readonly aliases: readonly string[];
  /** Fresh accumulators, one per aggregate. */
  create(): Acc[];
  /** A private copy of stored accumulators, safe to update. */
  copy(stored: readonly Acc[]): Acc[];
  /** Accumulators per state entry (the user's aggregates, plus the hidden row count over a changelog). */
  readonly width: number;
  /** True when built for a changelog input: `retract` and `isEmpty` work. */
  readonly retracts: boolean;
  /** Adds one row to `accs`, in place. */
  add(accs: Acc[], row: Row): void;
  /** Takes one row (a -U/-D image) back out of `accs`, in place; changelog plans only. */
  retract(accs: Acc[], row: Row): void;
  /** No rows left (more retracted than added counts as empty); always false for append-only plans. */
  isEmpty(accs: readonly Acc[]): boolean;
  /** Merges `from` (left unchanged) into `into`, in place; session windows merging. */
  merge(into: Acc[], from: readonly Acc[]): void;
  /** Writes the results under their aliases into `out`. */
  results(accs: readonly Acc[], out: Row): void;
}

// COUNT(DISTINCT) accumulators are objects of value keys: still flat, a shallow copy is full.
// The retracting ones nest one level ([sum, n], [value, count] pairs): copied one level deeper.
function copyAcc(a: Acc): Acc {
  if (a === null || typeof a !== 'object') return a;
  return Array.isArray(a) ? a.map(copyAcc) : { ...(a as Record<string, unknown>) };
}

const ROW_COUNT_INPUT = (): unknown => 1;

export function compileWindowAggregates(
  text: string,
  inputTypes?: ColumnTypes,
  options: { changelog?: boolean } = {},
): WindowAggregates {
  const calls = compileAggregates(text, inputTypes);
  const retracts = options.changelog === true;
  const aliases = calls.map((c) => c.alias);
  const fns = retracts
    ? calls.map((c): RetractingAccumulator => retractingAccumulatorFor(c.fn, c.distinct))
    : calls.map((c) => accumulatorFor(c.fn, c.distinct));
  const inputs = calls.map((c) => c.input);
  if (retracts) {
    fns.push(retractingAccumulatorFor('COUNT'));
    inputs.push(ROW_COUNT_INPUT);
  }
  // Accumulators in state, the hidden row count included; results come from the first `shown`.
  const n = fns.length;
  const shown = calls.length;
  const retractFns = fns as RetractingAccumulator[];
  return {
    aliases,
    width: n,
    retracts,
    retract(accs, row) {
      if (!retracts) throw new Error('retract on aggregates compiled for an append-only input');
      for (let j = 0; j < n; j++) accs[j] = retractFns[j].retract(accs[j], inputs[j](row));
    },
    isEmpty(accs) {
      return retracts && (accs[shown] as number) <= 0;
    },
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
      for (let j = 0; j < shown; j++) out[aliases[j]] = fns[j].result(accs[j]);
    },
  };
}

/**
 * Accumulators read back from state must have the plan's layout: a job restored after switching
 * between append-only and changelog input (or after editing its aggregates) would otherwise fold
 * rows into accumulators of another shape.
 */
export function checkRestoredWidth(aggs: WindowAggregates, accs: readonly unknown[], what: string): void {
  if (accs.length === aggs.width) return;
  throw new Error(
    `${what}: its state holds ${accs.length} accumulators per entry, but the job now computes ${aggs.width}` +
      ` (${aggs.retracts ? 'a changelog input adds a hidden row count' : 'an append-only input has no hidden row count'}):` +
      ' the aggregates or the changelog-ness of the input changed since the checkpoint; start the job fresh',
  );
}
