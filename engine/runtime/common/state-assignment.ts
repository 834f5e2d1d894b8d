/**
 * Which restored state each operator subtask gets (Flink's StateAssignmentOperation).
 * - Same parallelism: subtask i gets subtask i's state.
 * - Changed parallelism: keyed state is re-split by key group (every old snapshot whose range
 *   overlaps the new range); operator state is redistributed round-robin (old j -> new j % p),
 *   except sources, whose positions are unioned so every split keeps its offset.
 * The watermark a restored subtask starts from is the minimum of the watermarks it inherits, so no
 * record that was on time before the failure becomes late after it.
 */
import type { SubtaskStateSnapshot } from '../../contracts/checkpoint.ts';
import type { KeyedStateSnapshot, KeyGroupRange } from '../../contracts/keyed-state.ts';

/** The runtime's wrapper around an operator's own state (SubtaskStateSnapshot.operator). */
export interface WrappedOperatorState {
  /** The operator's state as returned by snapshotState (or a source's position + max timestamp). */
  state: unknown;
  /** The merged input watermark of this operator subtask when the barrier was aligned. */
  watermark: number | null;
}

export interface AssignedState {
  operator: unknown[];
  keyed: KeyedStateSnapshot[];
  watermark: number | null;
}

export function assignState(
  states: readonly SubtaskStateSnapshot[],
  nodeId: string,
  subtask: number,
  parallelism: number,
  range: KeyGroupRange,
  unionOperatorState: boolean,
): AssignedState | null {
  const mine = states.filter((s) => s.operatorId === nodeId);
  if (mine.length === 0) return null;
  const oldP = mine[0].parallelism;
  let picked: SubtaskStateSnapshot[];
  let keyed: KeyedStateSnapshot[];
  if (oldP === parallelism) {
    picked = mine.filter((s) => s.subtask === subtask);
    keyed = picked.flatMap((s) => (s.keyed ? [s.keyed] : []));
  } else {
    picked = unionOperatorState ? mine : mine.filter((s) => s.subtask % parallelism === subtask);
    keyed = mine.flatMap((s) =>
      s.keyed && s.keyed.keyGroupRange.start <= range.end && s.keyed.keyGroupRange.end >= range.start ? [s.keyed] : [],
    );
    // Keyed operators inherit the watermarks of the subtasks whose key groups they now own.
    if (keyed.length) picked = mine.filter((s) => s.keyed && keyed.includes(s.keyed));
  }
  const wrapped = picked.map((s) => s.operator as WrappedOperatorState | undefined);
  const wms = wrapped.map((w) => w?.watermark).filter((w): w is number => typeof w === 'number');
  return {
    operator: wrapped.map((w) => w?.state),
    keyed,
    watermark: wms.length ? Math.min(...wms) : null,
  };
}
