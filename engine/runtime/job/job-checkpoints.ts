/**
 * The CheckpointCoordinator as one run configures it: settings from the job, the restored
 * checkpoint adopted, ids continuing after the newest stored one, and statistics published when a
 * checkpoint starts and when it ends (not on every acknowledgement, which would flood the UI).
 */
import type { JobSettings } from '../../graph/types.ts';
import type { CheckpointBarrier, CheckpointStats } from '../../contracts/checkpoint.ts';
import type { CheckpointStorage, CompletedCheckpoint } from '../../contracts/checkpoint-storage.ts';
import { CheckpointCoordinator } from '../../checkpoint/coordinator.ts';
import type { CheckpointTimers } from '../../checkpoint/timers.ts';

export interface JobCheckpointEvents {
  /** Send barrier n to the task process. */
  trigger(barrier: CheckpointBarrier): void;
  /** Checkpoint n is durable: the tasks must be notified (their sinks commit). */
  completed(cp: CompletedCheckpoint): void;
  stats(stats: CheckpointStats): void;
  /** Too many consecutive failures: the job must fail or restart. */
  tooManyFailures(reason: string): void;
}

export interface JobCheckpointOptions {
  settings: JobSettings['checkpointing'];
  storage: CheckpointStorage;
  /** Operator subtasks that must acknowledge each checkpoint. */
  subtasks: number;
  events: JobCheckpointEvents;
  restored: CompletedCheckpoint | null;
  /** The first id to use (after the restored and after the newest stored checkpoint). */
  firstId: number;
  timers?: CheckpointTimers;
}

export function createJobCoordinator(o: JobCheckpointOptions): CheckpointCoordinator {
  const s = o.settings;
  const coordinator: CheckpointCoordinator = new CheckpointCoordinator({
    settings: {
      interval: s.interval,
      timeout: s.timeout,
      minPause: s.minPause,
      retained: Math.max(1, s.retained),
      tolerableFailures: s.tolerableFailures,
    },
    storage: o.storage,
    timers: o.timers,
    expectedSubtasks: () => o.subtasks,
    gateway: {
      triggerCheckpoint: (barrier) => o.events.trigger(barrier),
      notifyCheckpointComplete: () => {
        const cp = coordinator.latestCompleted();
        if (cp) o.events.completed(cp);
      },
      // Nothing to tell the tasks: a sink's transaction pre-committed for a failed checkpoint stays
      // pending and is committed by the next completed one (file-sink.ts commits ids <= n).
      abortCheckpoint: () => undefined,
    },
    onJobFailure: (reason) => o.events.tooManyFailures(reason),
    onStats: (stats) => {
      if (stats.status !== 'in_progress' || stats.acknowledged === 0) o.events.stats(stats);
    },
  });
  coordinator.resumeIds(o.firstId);
  if (o.restored) void coordinator.restoreFrom(o.restored);
  return coordinator;
}
