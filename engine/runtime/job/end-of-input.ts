/**
 * How a bounded run ends. A sink commits only when a checkpoint completes, so after every source
 * is exhausted one more checkpoint must be triggered (the checkpoint in flight at that moment may
 * have been cut before the last records): it commits the last transactions. Tasks are told to close
 * only once every subtask finished and that checkpoint was notified. Without checkpointing there is
 * nothing to commit, and tasks close as soon as they finished.
 *
 * The job master asks these after each event that may move the run forward (sources exhausted,
 * tasks finished, a checkpoint ended or was notified), while its attempt runs and is not closing.
 */

/** What the rule reads: the current attempt's reports and the checkpoints' progress. */
export interface EndOfInputView {
  /** The last checkpoint id triggered before every source was exhausted; null while one still reads. */
  exhaustedAfter: number | null;
  /** Every subtask processed end of input. */
  tasksFinished: boolean;
  /** `settings.checkpointing.interval` is set. */
  checkpointing: boolean;
  lastTriggeredId: number;
  /** A checkpoint or savepoint is in flight (only one at a time). */
  inFlight: boolean;
  /** The newest checkpoint the tasks confirmed as committed. */
  lastNotified: number;
}

/** The sources ran dry and the checkpoint that commits their last records is still to trigger. */
export function finalCheckpointDue(v: EndOfInputView): boolean {
  return v.checkpointing && v.exhaustedAfter !== null && v.lastTriggeredId <= v.exhaustedAfter && !v.inFlight;
}

/**
 * Once the tasks finished: `trigger-final` while no checkpoint after exhaustion was notified (every
 * task has finished, so each acknowledges at once), then `close`.
 */
export function stepAfterFinish(v: EndOfInputView): 'wait' | 'trigger-final' | 'close' {
  if (!v.tasksFinished) return 'wait';
  if (v.checkpointing && (v.exhaustedAfter === null || v.lastNotified <= v.exhaustedAfter)) return 'trigger-final';
  return 'close';
}
