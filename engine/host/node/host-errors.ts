/**
 * Every failure of a local host call leaves as a HostError (code + message); stacks stay here.
 * The runtime's refusals are about what was asked, not internal failures, so they map by class.
 */
import { CheckpointRestoreError, CheckpointStorageRefusedError } from '../../contracts/checkpoint-storage.ts';
import { SinkOutputError } from '../../contracts/sink-recovery.ts';
import { JobStartError, NonRestoredStateError, SampleEdgeError } from '../../runtime/job/errors.ts';
import { RunLockedError } from '../../runtime/job/run-lock.ts';
import { RunPathError } from '../../runtime/job/run-paths.ts';
import { HostError, toHostError } from '../common/errors.ts';

function hostErrorOf(err: unknown): HostError {
  if (err instanceof NonRestoredStateError)
    return new HostError(
      'non_restored_state',
      err.message,
      err.nodes.map((nodeId) => ({
        path: `nodes.${nodeId}`,
        nodeId,
        message: 'its state in the checkpoint would be dropped: the job no longer has this node',
      })),
    );
  if (err instanceof JobStartError) return new HostError('invalid_request', err.message);
  if (err instanceof SampleEdgeError) return new HostError('invalid_request', `from: ${err.message}`);
  if (err instanceof CheckpointRestoreError) return new HostError('not_found', err.message);
  if (err instanceof RunLockedError) return new HostError('already_running', err.message);
  if (err instanceof CheckpointStorageRefusedError) return new HostError('restore_refused', err.message);
  if (err instanceof SinkOutputError) return new HostError(err.code, err.message);
  if (err instanceof RunPathError) return new HostError('invalid_request', err.message);
  return toHostError(err);
}

/** Runs one host call, mapping whatever it throws. */
export async function guard<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw hostErrorOf(err);
  }
}
