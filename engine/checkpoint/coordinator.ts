/**
 * CheckpointCoordinator (host side; docs/architecture.md, the checkpoint protocol): triggers checkpoint n by asking the gateway to
 * inject barrier n at every source, collects one acknowledgement per subtask, and when all are in,
 * has the storage persist the checkpoint (metadata last), then notifies every task that n is
 * complete (which commits the 2PC sinks), then disposes subsumed checkpoints.
 *
 * It only orchestrates; the pieces live beside it: TriggerScheduler (interval, minPause, one in
 * flight), PendingCheckpoint (acks), CheckpointFailureManager (tolerable failures),
 * CheckpointStatsTracker (statistics), CompletedCheckpointStore (retention), CheckpointStorage.
 *
 * Invariants: at most one checkpoint or savepoint is in flight; ids strictly increase, also across
 * restores (next id = max(restored id, newest stored id) + 1); `notifyCheckpointComplete(n)` is sent
 * only after n's metadata is durable, and never for a failed checkpoint.
 */
import type {
  CheckpointAck,
  CheckpointBarrier,
  CheckpointStats,
  CheckpointStatsSummary,
  SubtaskCheckpointStats,
} from '../contracts/checkpoint.ts';
import { CheckpointFailureManager } from './failure-manager.ts';
import { CompletedCheckpointStore } from './completed-store.ts';
import { PendingCheckpoint, type SubtaskId } from './pending-checkpoint.ts';
import { CheckpointStatsTracker, type CheckpointStatsListener } from './stats-tracker.ts';
import {
  CheckpointDeclinedError,
  type CheckpointKind,
  type CheckpointStorage,
  type CompletedCheckpoint,
} from '../contracts/checkpoint-storage.ts';
import { systemTimers, type CheckpointTimers, type TimerHandle } from './timers.ts';
import { TriggerScheduler } from './trigger-scheduler.ts';

/** How the coordinator reaches the tasks (implemented by the runtime over its task-process channel). */
export interface CheckpointGateway {
  /** Inject barrier n at every source subtask (with its position Sn). */
  triggerCheckpoint(barrier: CheckpointBarrier): void;
  /** Checkpoint n is complete and durable: tasks commit side effects. */
  notifyCheckpointComplete(checkpointId: number): void;
  /** Checkpoint n failed: tasks drop its pending state (a sink aborts nothing committed). */
  abortCheckpoint(checkpointId: number, reason: string): void;
}

export interface CheckpointCoordinatorSettings {
  /** ms between periodic checkpoints; null = no periodic checkpoints (savepoints still work). */
  interval: number | null;
  timeout: number;
  minPause: number;
  retained: number;
  tolerableFailures: number;
}

export interface CheckpointCoordinatorOptions {
  settings: CheckpointCoordinatorSettings;
  storage: CheckpointStorage;
  gateway: CheckpointGateway;
  /**
   * Subtasks that must acknowledge a checkpoint, evaluated at each trigger: their identities, or
   * just their number (any distinct subtasks then count).
   */
  expectedSubtasks: () => readonly SubtaskId[] | number;
  /** Called once when failures exceed `tolerableFailures`: the job must fail with this reason. */
  onJobFailure: (reason: string) => void;
  onStats?: CheckpointStatsListener;
  /** Problems that do not fail anything (a subsumed checkpoint could not be deleted, ...). */
  onWarning?: (message: string) => void;
  timers?: CheckpointTimers;
}

export class CheckpointFailedError extends Error {
  constructor(
    readonly checkpointId: number,
    message: string,
  ) {
    super(message);
    this.name = 'CheckpointFailedError';
  }
}

interface Waiter {
  resolve(cp: CompletedCheckpoint): void;
  reject(err: Error): void;
}
interface QueuedRequest extends Waiter {
  kind: CheckpointKind;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export class CheckpointCoordinator {
  private readonly timers: CheckpointTimers;
  private readonly scheduler: TriggerScheduler;
  private readonly failures: CheckpointFailureManager;
  private readonly stats: CheckpointStatsTracker;
  private readonly completed: CompletedCheckpointStore;
  private nextId = 1;
  private pending: PendingCheckpoint | null = null;
  private completing = false;
  private timeoutTimer: TimerHandle | null = null;
  private readonly queue: QueuedRequest[] = [];
  private readonly waiters = new Map<number, Waiter>();
  private stopped = false;
  /** Storing + notifying + subsuming of the checkpoint being completed. */
  private finishing: Promise<void> | null = null;

  constructor(private readonly opts: CheckpointCoordinatorOptions) {
    const s = opts.settings;
    this.timers = opts.timers ?? systemTimers;
    this.scheduler = new TriggerScheduler(s.interval, s.minPause, this.timers, () => this.trigger('checkpoint'));
    this.failures = new CheckpointFailureManager(s.tolerableFailures, opts.onJobFailure);
    this.stats = new CheckpointStatsTracker(opts.onStats);
    this.completed = new CompletedCheckpointStore(s.retained, opts.storage);
  }

  /** Starts periodic checkpoints (if an interval is set). */
  start(): void {
    this.stopped = false;
    this.scheduler.start();
  }

  /** Stops periodic triggering only; the checkpoint in flight and queued requests carry on. */
  pausePeriodic(): void {
    this.scheduler.stop();
  }

  /** Rejects queued savepoint/checkpoint requests (the one in flight is unaffected). */
  cancelQueued(reason: string): void {
    for (const q of this.queue.splice(0)) q.reject(new Error(`savepoint/checkpoint request cancelled: ${reason}`));
  }

  /** Ids continue at `nextId` or later (e.g. the first id after a restored checkpoint). */
  resumeIds(nextId: number): void {
    this.nextId = Math.max(this.nextId, nextId);
  }

  /** Stops triggering; an in-flight checkpoint fails (not counted) and queued requests are rejected. */
  stop(reason = 'checkpointing stopped'): void {
    this.scheduler.stop();
    this.stopped = true;
    if (this.pending && !this.completing) this.fail(this.pending, reason, false);
    this.cancelQueued(reason);
  }

  /**
   * Continue after restoring `cp`: ids continue after it (and after every stored id, so no folder is
   * reused), the stored checkpoints up to `cp` are adopted for retention, and the restore is counted
   * in the statistics.
   */
  async restoreFrom(cp: CompletedCheckpoint): Promise<void> {
    // Synchronous part first, so a trigger racing with the adoption below still gets a fresh id.
    this.resumeIds(cp.id + 1);
    this.failures.reset();
    this.stats.reportRestored(cp.id, cp.kind, cp.location, this.timers.now());
    this.completed.adopt([cp]);
    const stored = await this.opts.storage.listCompleted().catch(() => [] as CompletedCheckpoint[]);
    this.resumeIds(stored.reduce((m, c) => Math.max(m, c.id), 0) + 1);
    // Checkpoints newer than the restored one (after `--from` an older checkpoint or savepoint)
    // belong to an abandoned history: never restored from in this run, never deleted by it.
    this.completed.adopt(stored.filter((c) => c.id <= cp.id));
  }

  /** A savepoint; runs now, or right after the checkpoint in flight. */
  triggerSavepoint(): Promise<CompletedCheckpoint> {
    return this.request('savepoint');
  }

  /** A checkpoint on demand (e.g. the final checkpoint of a bounded job). */
  triggerCheckpoint(): Promise<CompletedCheckpoint> {
    return this.request('checkpoint');
  }

  private request(kind: CheckpointKind): Promise<CompletedCheckpoint> {
    return new Promise<CompletedCheckpoint>((resolve, reject) => {
      if (this.stopped) {
        reject(new Error('checkpointing is stopped'));
        return;
      }
      if (this.pending) this.queue.push({ kind, resolve, reject });
      else this.trigger(kind, { resolve, reject });
    });
  }

  private trigger(kind: CheckpointKind, waiter?: Waiter): void {
    if (this.stopped) {
      waiter?.reject(new Error('checkpointing is stopped'));
      return;
    }
    if (this.pending) {
      // Periodic triggers never queue: the scheduler re-arms when the in-flight one ends.
      if (waiter) this.queue.push({ kind, ...waiter });
      return;
    }
    const now = this.timers.now();
    const barrier: CheckpointBarrier = { id: this.nextId++, timestamp: now, kind };
    const pending = new PendingCheckpoint(barrier, now, this.opts.expectedSubtasks());
    this.pending = pending;
    if (waiter) this.waiters.set(barrier.id, waiter);
    this.scheduler.onTriggered(now);
    this.stats.reportTriggered(barrier.id, kind, now, pending.total);
    this.timeoutTimer = this.timers.setTimeout(() => this.expire(pending), this.opts.settings.timeout);
    try {
      this.opts.gateway.triggerCheckpoint(barrier);
    } catch (err) {
      this.fail(pending, `${kind} ${barrier.id} could not be triggered: ${errorText(err)}`, true);
      return;
    }
    if (pending.isComplete) this.startCompletion(pending); // a job without subtasks
  }

  private expire(p: PendingCheckpoint): void {
    if (this.pending !== p || this.completing) return;
    const missing = p.missing();
    const shown = missing.slice(0, 5).join(', ') + (missing.length > 5 ? `, and ${missing.length - 5} more` : '');
    this.fail(
      p,
      `${p.kind} ${p.id} expired after ${this.opts.settings.timeout} ms before all subtasks acknowledged ` +
        `(${p.acknowledged}/${p.total}; still waiting for ${shown})`,
      true,
    );
  }

  /** An acknowledgement from a task: its subtasks' state and statistics for checkpoint n. */
  receiveAck(ack: CheckpointAck): void {
    const p = this.pending;
    if (!p || p.id !== ack.checkpointId || this.completing) return; // late ack of a finished/failed checkpoint
    try {
      for (const state of ack.states) this.opts.storage.checkSubtaskState(state);
    } catch (err) {
      const reason = err instanceof CheckpointDeclinedError ? err.message : `state rejected: ${errorText(err)}`;
      this.fail(p, `${p.kind} ${p.id} failed: ${reason}`, true);
      return;
    }
    const outcome = p.acknowledge(ack);
    if (outcome.kind === 'ignored') return;
    this.stats.reportAcknowledged(p.id, outcome.newlyAcked, p.acknowledged);
    if (outcome.complete) this.startCompletion(p);
  }

  /** A task could not take its part of checkpoint n (snapshot error, ...): n fails. */
  declineCheckpoint(checkpointId: number, reason: string, stats?: readonly SubtaskCheckpointStats[]): void {
    const p = this.pending;
    if (!p || p.id !== checkpointId || this.completing) return;
    // The refused snapshot's size (memoryStateLimit) belongs in the failed checkpoint's statistics.
    if (stats?.length) this.stats.reportDeclined(p.id, stats);
    this.fail(p, `${p.kind} ${p.id} was declined by a task: ${reason}`, true);
  }

  /** The tasks failed (process died, operator threw): the in-flight checkpoint fails, not counted. */
  abortPending(reason: string): void {
    const p = this.pending;
    if (!p || this.completing) return;
    this.fail(p, `${p.kind} ${p.id} aborted: ${reason}`, false);
  }

  /** Fails the in-flight checkpoint with `reason` as given; `counts` decides whether it is a checkpoint failure. */
  failPending(reason: string, counts = true): void {
    const p = this.pending;
    if (!p || this.completing) return;
    this.fail(p, reason, counts);
  }

  private startCompletion(p: PendingCheckpoint): void {
    const work = this.complete(p).finally(() => {
      if (this.finishing === work) this.finishing = null;
    });
    this.finishing = work;
  }

  /**
   * Resolves once the checkpoint whose acknowledgements are all in has been stored, notified and
   * its subsumed predecessors deleted (a no-op when nothing is completing).
   */
  async settled(): Promise<void> {
    while (this.finishing) await this.finishing;
  }

  private async complete(p: PendingCheckpoint): Promise<void> {
    this.completing = true;
    this.clearTimeout();
    let cp: CompletedCheckpoint;
    try {
      cp = await this.opts.storage.store(p.data());
    } catch (err) {
      this.completing = false;
      this.fail(p, `${p.kind} ${p.id} could not be stored: ${errorText(err)}`, true);
      return;
    }
    this.pending = null;
    this.completing = false;
    const now = this.timers.now();
    const subsumed = this.completed.add(cp);
    this.stats.reportCompleted(p.id, now, cp.location);
    if (p.kind === 'checkpoint') this.failures.onSuccess();
    try {
      this.opts.gateway.notifyCheckpointComplete(p.id);
    } catch (err) {
      this.opts.onWarning?.(`could not notify tasks that ${p.kind} ${p.id} completed: ${errorText(err)}`);
    }
    this.waiters.get(p.id)?.resolve(cp);
    this.waiters.delete(p.id);
    try {
      await this.completed.dispose(subsumed);
    } catch (err) {
      this.opts.onWarning?.(`could not delete a subsumed checkpoint: ${errorText(err)}`);
    }
    this.afterEnd(now, true);
  }

  private fail(p: PendingCheckpoint, reason: string, counts: boolean): void {
    if (this.pending !== p) return;
    this.pending = null;
    this.clearTimeout();
    const now = this.timers.now();
    this.stats.reportFailed(p.id, now, reason);
    try {
      this.opts.gateway.abortCheckpoint(p.id, reason);
    } catch (err) {
      this.opts.onWarning?.(`could not tell tasks that ${p.kind} ${p.id} failed: ${errorText(err)}`);
    }
    this.opts.storage
      .discardFailed(p.data())
      .catch((err) => this.opts.onWarning?.(`could not clean up failed ${p.kind} ${p.id}: ${errorText(err)}`));
    this.waiters.get(p.id)?.reject(new CheckpointFailedError(p.id, reason));
    this.waiters.delete(p.id);
    // Savepoint failures are reported to whoever asked for the savepoint; they do not fail the job.
    if (counts && p.kind === 'checkpoint') this.failures.onFailure(p.id, reason);
    this.afterEnd(now, false);
  }

  private afterEnd(now: number, completed: boolean): void {
    if (this.stopped) return;
    this.scheduler.onEnded(now, completed);
    const next = this.queue.shift();
    if (next) this.trigger(next.kind, next);
  }

  private clearTimeout(): void {
    if (this.timeoutTimer) this.timers.clearTimeout(this.timeoutTimer);
    this.timeoutTimer = null;
  }

  /** Id of the most recently triggered checkpoint or savepoint (0 before the first). */
  get lastTriggeredId(): number {
    return this.nextId - 1;
  }

  get inFlight(): { id: number; kind: CheckpointKind } | null {
    return this.pending && { id: this.pending.id, kind: this.pending.kind };
  }

  /** Newest completed checkpoint or savepoint of this run (or adopted on restore). */
  latestCompleted(): CompletedCheckpoint | null {
    return this.completed.latest();
  }

  retainedCheckpoints(): CompletedCheckpoint[] {
    return this.completed.all();
  }

  history(): CheckpointStats[] {
    return this.stats.all();
  }

  summary(): CheckpointStatsSummary {
    return this.stats.summary();
  }

  get consecutiveFailures(): number {
    return this.failures.consecutiveFailures;
  }
}
