/**
 * CheckpointCoordinator behind the method surface of the runtime's first `CheckpointDriver`
 * (engine/runtime/checkpoint-driver.ts), so the job runner can switch with one import:
 *
 *   import { CoordinatorCheckpointDriver as CheckpointDriver } from '../checkpoint/runtime-driver.ts';
 *
 * Same constructor and methods; what changes underneath: savepoints queue behind the checkpoint in
 * flight, timeouts name the missing subtasks, statistics carry counts and restores (`summary()`),
 * subsumed checkpoints are deleted after the tasks were notified, and ids continue after the newest
 * stored checkpoint.
 */
import type { JobSettings } from '../graph/types.ts';
import type { CheckpointAck, CheckpointBarrier, CheckpointStats, CheckpointStatsSummary, SubtaskCheckpointStats } from '../contracts/checkpoint.ts';
import type { CheckpointStorage, CompletedCheckpoint } from '../contracts/checkpoint-storage.ts';
import { CheckpointCoordinator } from './coordinator.ts';
import type { CheckpointTimers } from './timers.ts';

export interface CheckpointDriverEvents {
  /** Send barrier n to the task process. */
  trigger(barrier: CheckpointBarrier): void;
  /** Checkpoint n is durable: the runner sends notifyCheckpointComplete(n) to the tasks. */
  completed(cp: CompletedCheckpoint): void;
  stats(stats: CheckpointStats): void;
  /** Too many consecutive failures: the job must fail/restart. */
  tooManyFailures(reason: string): void;
}

export class CoordinatorCheckpointDriver {
  /** Operator subtasks that must acknowledge each checkpoint. */
  total = 0;
  readonly coordinator: CheckpointCoordinator;
  private readonly restored: CompletedCheckpoint | null;

  constructor(
    private readonly settings: JobSettings['checkpointing'],
    storage: CheckpointStorage,
    events: CheckpointDriverEvents,
    restored: CompletedCheckpoint | null,
    firstId: number,
    timers?: CheckpointTimers,
  ) {
    this.restored = restored;
    this.coordinator = new CheckpointCoordinator({
      settings: {
        interval: settings.interval, timeout: settings.timeout, minPause: settings.minPause,
        retained: Math.max(1, settings.retained), tolerableFailures: settings.tolerableFailures,
      },
      storage,
      timers,
      expectedSubtasks: () => this.total,
      gateway: {
        triggerCheckpoint: (barrier) => events.trigger(barrier),
        notifyCheckpointComplete: () => {
          const cp = this.coordinator.latestCompleted();
          if (cp) events.completed(cp);
        },
        abortCheckpoint: () => undefined,
      },
      onJobFailure: (reason) => events.tooManyFailures(reason),
      onStats: (stats) => {
        // Like the first driver: publish when a checkpoint starts and when it ends.
        if (stats.status !== 'in_progress' || stats.acknowledged === 0) events.stats(stats);
      },
    });
    this.coordinator.resumeIds(firstId);
    if (restored) void this.coordinator.restoreFrom(restored);
  }

  get enabled(): boolean { return this.settings.interval !== null; }
  get inFlight(): boolean { return this.coordinator.inFlight !== null; }
  get lastTriggeredId(): number { return this.coordinator.lastTriggeredId; }
  get latest(): CompletedCheckpoint | null { return this.coordinator.latestCompleted() ?? this.restored; }
  checkpointHistory(): CheckpointStats[] { return this.coordinator.history(); }
  summary(): CheckpointStatsSummary { return this.coordinator.summary(); }

  /** Start periodic triggering (a running task process is ready). */
  start(): void {
    if (this.enabled) this.coordinator.start();
  }

  /** Stop periodic triggering (the checkpoint in flight carries on). */
  stop(): void {
    this.coordinator.pausePeriodic();
  }

  /** Trigger right away (final checkpoint of a bounded job); null while one is in flight. */
  triggerNow(kind: 'checkpoint' | 'savepoint' = 'checkpoint'): number | null {
    if (this.coordinator.inFlight) return null;
    const done = kind === 'savepoint' ? this.coordinator.triggerSavepoint() : this.coordinator.triggerCheckpoint();
    done.catch(() => undefined); // outcome reported through events/stats
    return this.coordinator.lastTriggeredId;
  }

  /** A checkpoint or savepoint as soon as none is in flight; resolves when it completed. */
  request(kind: 'checkpoint' | 'savepoint'): Promise<CompletedCheckpoint> {
    return kind === 'savepoint' ? this.coordinator.triggerSavepoint() : this.coordinator.triggerCheckpoint();
  }

  /** Resolves once this ack has been handled (including storing the checkpoint it completed). */
  async onAck(ack: CheckpointAck): Promise<void> {
    this.coordinator.receiveAck(ack);
    await this.coordinator.settled();
  }

  onDecline(checkpointId: number, reason: string, stats?: readonly SubtaskCheckpointStats[]): void {
    this.coordinator.declineCheckpoint(checkpointId, reason, stats);
  }

  /** Fail the pending checkpoint (decline, timeout, task process gone). */
  fail(reason: string, countAsFailure = true): void {
    this.coordinator.failPending(reason, countAsFailure);
  }

  rejectQueued(reason: string): void {
    this.coordinator.cancelQueued(reason);
  }

  dispose(): void {
    this.coordinator.stop('job ended');
  }
}
