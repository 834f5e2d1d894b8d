/** Refusals of the job side: about what was asked, not internal failures (hosts map them by class). */

/** A run cannot start as asked (e.g. `--resume` with the memory backend); nothing was changed. */
export class JobStartError extends Error {
  override name = 'JobStartError';
}

/**
 * A restore would drop the state of nodes the job no longer has (restore-compatibility.ts); `nodes`
 * names them, so a UI can ask before restoring with `allowNonRestoredState`.
 */
export class NonRestoredStateError extends JobStartError {
  override name = 'NonRestoredStateError';
  constructor(
    message: string,
    readonly nodes: string[],
  ) {
    super(message);
  }
}

/** `sampleEdge` named a node or port the job does not have. */
export class SampleEdgeError extends Error {
  override name = 'SampleEdgeError';
}

/** A job master was asked for a state change its lifecycle forbids: a bug in the master, never input. */
export class IllegalJobTransitionError extends Error {
  override name = 'IllegalJobTransitionError';
}
