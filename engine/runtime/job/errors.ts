/** Refusals of the job side: about what was asked, not internal failures (hosts map them by class). */

/** A run cannot start as asked (e.g. `--resume` with the memory backend); nothing was changed. */
export class JobStartError extends Error {
  override name = 'JobStartError';
}

/** `sampleEdge` named a node or port the job does not have. */
export class SampleEdgeError extends Error {
  override name = 'SampleEdgeError';
}

/** A job master was asked for a state change its lifecycle forbids: a bug in the master, never input. */
export class IllegalJobTransitionError extends Error {
  override name = 'IllegalJobTransitionError';
}
