/**
 * How a checkpoint's outcome reads in the UI: the Logs (logStore) and the checkpoint views agree
 * on which failures are real. Plain TS.
 */
import type { CheckpointStats } from '../../../engine/contracts/checkpoint.ts';

/**
 * A checkpoint still pending when the job ended (the coordinator stops with 'job ended'; the panel
 * marks leftovers 'abandoned') did not fail: the job was over, its output already committed by the
 * end of input or the savepoint. Shown as "discarded", not counted as failed (Flink's web UI does
 * not list a finished job's leftover checkpoint as a failure either).
 */
export function isDiscarded(c: CheckpointStats): boolean {
  return c.status === 'failed' && /^(job ended|abandoned)/.test(c.failureReason ?? '');
}

/** The status to show: 'discarded' for a checkpoint the end of the job made moot. */
export function shownStatus(c: CheckpointStats): CheckpointStats['status'] | 'discarded' {
  return isDiscarded(c) ? 'discarded' : c.status;
}
