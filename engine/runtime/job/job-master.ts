/**
 * `JobMaster`: the host side of one run (Flink's JobMaster). Launches the task process, drives
 * checkpoints through the CheckpointCoordinator, restarts after failures and reports RunEvents.
 * Its lifecycle is the explicit state machine of job-state.ts; what belongs to one attempt (its
 * task process, whether its sources ran dry) lives in a `TaskAttempt` (task-attempt.ts), dropped
 * when the attempt ends.
 *
 * Lifecycle rules:
 * - Before any task process starts, every sink recovers from the checkpoint being restored through
 *   the hook its connector registered (sink-hooks.ts): pending transactions are committed, every
 *   other temp transaction is deleted.
 * - A bounded job finishes only after a checkpoint triggered after all sources were exhausted has
 *   completed and been notified (so the last transactions are committed), then tasks close.
 * - Task process death or an operator failure restarts from the latest completed checkpoint while
 *   `settings.restart.attempts` allow (restart-policy.ts); after that the job fails with the cause.
 *
 * Everything outside the master comes in through its options: the task launcher (launcher.ts, or
 * Electron's), the clock and timers (job-timers.ts; the coordinator runs on the same ones) and
 * fault hooks for crash tests, so test/engine/runtime/job/ drives it on a manual clock with an
 * in-memory task side.
 */
import type { CheckpointCoordinator } from '../../checkpoint/coordinator.ts';
import type { CompletedCheckpoint } from '../../contracts/checkpoint-storage.ts';
import type { JobFaults, JobHandle, JobResult, RunEvent, TaskLauncher } from './api.ts';
import { operatorSubtaskCount } from '../common/plan.ts';
import type { HostToTask, TaskToHost } from '../common/task-protocol.ts';
import { createJobCoordinator } from './job-checkpoints.ts';
import { EdgeSamples } from './edge-samples.ts';
import { finalCheckpointDue, stepAfterFinish, type EndOfInputView } from './end-of-input.ts';
import { JobStateMachine } from './job-state.ts';
import { systemJobTimers, type JobTimers } from './job-timers.ts';
import { NotifiedCheckpoints } from './notified-checkpoints.ts';
import type { PreparedRun } from './prepared-run.ts';
import { RestartPolicy } from './restart-policy.ts';
import { recordSinkCommits, recoverSinks } from './sink-hooks.ts';
import { startMessage, TaskAttempt, type ExitInfo } from './task-attempt.ts';

/** How long closing tasks may take after a stop before their process is killed. */
const STOP_KILL_AFTER_MS = 5000;

export interface JobMasterOptions {
  launcher: TaskLauncher;
  onEvent?: (event: RunEvent) => void;
  /** Metrics cadence in ms. */
  metricsInterval: number;
  /** Defaults to the system clock (job-timers.ts); tests pass a manual one. */
  timers?: JobTimers;
  faults?: JobFaults;
}

export class JobMaster {
  readonly done: Promise<JobResult>;
  private readonly state: JobStateMachine;
  private readonly coordinator: CheckpointCoordinator;
  private readonly samples: EdgeSamples;
  private readonly notified = new NotifiedCheckpoints();
  private readonly timers: JobTimers;
  private readonly startedAt: number;
  private readonly restartPolicy: RestartPolicy;
  private attempts = 0;
  private current: TaskAttempt | null = null;
  /** Set by `stop`: the run ends as stopped (with this savepoint) whatever the tasks do next. */
  private stopRequest: { savepoint?: string } | null = null;
  private result: JobResult | null = null;
  /** Savepoint requests made before the tasks were running: a trigger then would reach no subtask. */
  private readonly runningWaiters: Array<() => void> = [];
  private resolveDone!: (r: JobResult) => void;

  constructor(
    private readonly run: PreparedRun,
    private readonly opts: JobMasterOptions,
  ) {
    this.done = new Promise<JobResult>((r) => {
      this.resolveDone = r;
    });
    this.timers = opts.timers ?? systemJobTimers;
    this.startedAt = this.timers.now();
    this.restartPolicy = new RestartPolicy(run.job.settings.restart);
    this.samples = new EdgeSamples(run.job);
    this.state = new JobStateMachine((status, cause) => {
      this.emit({
        type: 'job.status',
        status,
        restarts: this.restarts,
        startedAt: this.startedAt,
        ...(cause ? { cause } : {}),
      });
    });
    this.coordinator = createJobCoordinator({
      settings: run.job.settings.checkpointing,
      storage: run.storage,
      subtasks: operatorSubtaskCount(run.plan),
      restored: run.restored,
      firstId: run.firstId,
      timers: this.timers,
      events: {
        trigger: (barrier) => this.send({ type: 'trigger', barrier }),
        completed: (cp) => this.commit(cp),
        stats: (stats) => {
          this.emit({ type: 'checkpoint', stats });
          // The checkpoint in flight when the sources ran dry is not the final one: trigger that next.
          if (stats.status !== 'in_progress')
            this.timers.setTimeout(
              () => {
                this.ensureFinalCheckpoint();
                this.maybeFinish();
              },
              0,
              { keepAlive: true },
            );
        },
        tooManyFailures: (reason) => this.failure(reason),
      },
    });
  }

  /** Reports `created`, launches the first attempt and hands out the run's control surface. */
  start(): JobHandle {
    for (const message of this.run.notices) this.emit({ type: 'log', level: 'warn', kind: 'notice', message });
    this.state.announce();
    this.launch();
    const state = this.state;
    return {
      get status() {
        return state.status;
      },
      done: this.done,
      stop: (o) => this.stop(o),
      triggerSavepoint: () => this.triggerSavepoint(),
      killTaskProcess: () => this.current?.kill(),
      checkpointHistory: () => this.coordinator.history(),
      sampleEdge: (req) => this.sampleEdge(req),
    };
  }

  async stop(o: { savepoint?: boolean } = {}): Promise<{ savepoint?: string }> {
    if (this.state.terminal) return {};
    let savepoint: string | undefined;
    if (o.savepoint && (await this.whenRunning())) {
      const cp = await this.coordinator.triggerSavepoint();
      await this.notified.wait(cp.id);
      savepoint = cp.location;
    }
    this.stopRequest = savepoint ? { savepoint } : {};
    this.coordinator.pausePeriodic();
    const attempt = this.current;
    if (attempt && !this.state.terminal) {
      if (this.state.status !== 'finishing') this.state.to('finishing');
      this.send({ type: 'close' });
      this.timers.setTimeout(() => attempt.kill(), STOP_KILL_AFTER_MS);
    } else {
      this.finish({ status: 'stopped', restarts: this.restarts, ...this.stopRequest });
    }
    await this.done;
    return savepoint ? { savepoint } : {};
  }

  async triggerSavepoint(): Promise<{ path: string; id: number }> {
    if (!(await this.whenRunning())) throw new Error(`the job is ${this.state.status}: no savepoint can be taken`);
    const cp = await this.coordinator.triggerSavepoint();
    return { path: cp.location, id: cp.id };
  }

  sampleEdge(req: Parameters<JobHandle['sampleEdge']>[0]): void {
    this.samples.set(req, req.on);
    if (!this.state.terminal) this.send({ type: 'sample', nodeId: req.nodeId, port: req.port, on: req.on });
  }

  private emit(e: RunEvent): void {
    try {
      this.opts.onEvent?.(e);
    } catch {
      /* a listener must not break the run */
    }
  }

  private send(m: HostToTask): void {
    this.current?.send(m);
  }

  /**
   * True once the current attempt's tasks are running (at once if they are); false if the run ends
   * or starts closing first. A barrier sent before `ready` reaches no subtask, so a savepoint asked
   * for during start-up or a restart would wait for its timeout (Flink refuses it instead; a Ctrl-C
   * right after `weir run` should still stop with a savepoint).
   */
  private whenRunning(): Promise<boolean> {
    if (this.state.status === 'running') return Promise.resolve(true);
    if (this.state.terminal || this.state.status === 'finishing') return Promise.resolve(false);
    return new Promise<boolean>((resolve) => this.runningWaiters.push(() => resolve(this.state.status === 'running')));
  }

  private wakeRunningWaiters(): void {
    for (const wake of this.runningWaiters.splice(0)) wake();
  }

  private get restarts(): number {
    return this.restartPolicy.restarts;
  }

  /** Checkpoint `cp` is stored: sinks record what notify(n) commits before it is sent, so a later restore knows it. */
  private commit(cp: CompletedCheckpoint): void {
    this.opts.faults?.beforeNotify?.(cp.id);
    try {
      recordSinkCommits(this.run.job, cp.id, cp.states, this.run.lineage);
    } catch (e) {
      this.failure(`recording committed files failed: ${(e as Error).message}`);
      return;
    }
    this.send({ type: 'notify', checkpointId: cp.id });
  }

  /** The checkpoint a new attempt restores: the latest completed, else the one this run started from. */
  private latestCheckpoint(): CompletedCheckpoint | null {
    return this.coordinator.latestCompleted() ?? this.run.restored;
  }

  private get checkpointing(): boolean {
    return this.run.job.settings.checkpointing.interval !== null;
  }

  private triggerNow(): void {
    if (this.coordinator.inFlight) return;
    this.coordinator.triggerCheckpoint().catch(() => undefined); // the outcome arrives as stats
  }

  private finish(r: JobResult): void {
    if (this.result) return;
    this.result = r;
    this.coordinator.stop('job ended');
    this.coordinator.cancelQueued(`job ${r.status}`);
    this.state.to(r.status, r.cause);
    this.wakeRunningWaiters();
    this.resolveDone(r);
  }

  /** The end-of-input rule's view of the current attempt (end-of-input.ts), or null when it does not apply. */
  private endOfInput(): EndOfInputView | null {
    const a = this.current;
    if (!a || this.state.terminal || this.state.status === 'finishing') return null;
    return {
      exhaustedAfter: a.exhaustedAfter,
      tasksFinished: a.tasksFinished,
      checkpointing: this.checkpointing,
      lastTriggeredId: this.coordinator.lastTriggeredId,
      inFlight: this.coordinator.inFlight !== null,
      lastNotified: this.notified.last,
    };
  }

  private ensureFinalCheckpoint(): void {
    const v = this.endOfInput();
    if (v && finalCheckpointDue(v)) this.triggerNow();
  }

  private maybeFinish(): void {
    const v = this.endOfInput();
    const step = v ? stepAfterFinish(v) : 'wait';
    if (step === 'trigger-final') this.triggerNow();
    if (step !== 'close') return;
    this.coordinator.pausePeriodic();
    this.state.to('finishing');
    this.wakeRunningWaiters();
    this.send({ type: 'close' });
  }

  /** `checkpointCause`: why a checkpoint in flight failed with the tasks (its stats keep it). */
  private failure(cause: string, checkpointCause = `task failure: ${cause}`): void {
    if (this.state.terminal || this.state.status === 'finishing') return;
    this.coordinator.failPending(checkpointCause, false);
    this.coordinator.pausePeriodic();
    const dead = this.current;
    this.current = null;
    dead?.kill();
    if (this.stopRequest) {
      this.finish({ status: 'stopped', restarts: this.restarts, ...this.stopRequest });
      return;
    }
    const next = this.restartPolicy.next(cause);
    if (!next.restart) {
      this.finish({ status: 'failed', cause: next.cause, restarts: this.restarts });
      return;
    }
    this.state.to('restarting', cause);
    this.emit({
      type: 'job.restart',
      restarts: this.restarts,
      cause,
      restoredCheckpoint: this.latestCheckpoint()?.id ?? null,
    });
    this.timers.setTimeout(
      () => {
        if (!this.state.terminal) this.launch();
      },
      next.delay,
      { keepAlive: true },
    );
  }

  private onMessage(from: TaskAttempt, m: TaskToHost): void {
    if (from !== this.current) return; // a previous attempt's last words
    switch (m.type) {
      case 'ready':
        // A stop may already have told this attempt to close: then it never starts checkpointing.
        if (this.state.status !== 'created' && this.state.status !== 'restarting') break;
        this.state.to('running');
        if (this.checkpointing) this.coordinator.start();
        this.wakeRunningWaiters();
        break;
      case 'ack':
        this.coordinator.receiveAck(m.ack);
        break;
      case 'decline':
        this.coordinator.declineCheckpoint(m.checkpointId, m.reason, m.stats);
        break;
      case 'exhausted':
        from.exhaustedAfter = this.coordinator.lastTriggeredId;
        this.ensureFinalCheckpoint();
        break;
      case 'finished':
        from.tasksFinished = true;
        this.maybeFinish();
        break;
      case 'notified':
        this.notified.reached(m.checkpointId);
        this.maybeFinish();
        break;
      case 'metrics':
        this.emit({ type: 'metrics', time: m.time, operators: m.operators });
        break;
      case 'preview':
        this.emit({ type: 'preview', target: m.target, records: m.records });
        break;
      case 'log':
        this.emit({ type: 'log', level: m.level, kind: m.kind, message: m.message });
        break;
      case 'failed':
        this.failure(m.message);
        break;
      case 'closed':
        break;
    }
  }

  private onExit(from: TaskAttempt, info: ExitInfo): void {
    if (from !== this.current) return;
    const how = info.signal ? `killed by ${info.signal}` : `exited with code ${info.code}`;
    if (this.stopRequest) {
      this.current = null;
      this.finish({ status: 'stopped', restarts: this.restarts, ...this.stopRequest });
    } else if (this.state.status === 'finishing') {
      this.current = null;
      // Every record was processed and committed before `close`; only the goodbye went wrong.
      this.finish(
        info.code === 0
          ? { status: 'finished', restarts: this.restarts }
          : { status: 'finished', restarts: this.restarts, cause: `the task process ${how} while closing` },
      );
    } else {
      this.failure(`the task process ${how}`, `task process died: ${how}`);
    }
  }

  private launch(): void {
    void this.launchAttempt();
  }

  private async launchAttempt(): Promise<void> {
    const cp = this.latestCheckpoint();
    try {
      // A host killed between completing cp and recording it: record before the sinks commit cp.
      if (cp) recordSinkCommits(this.run.job, cp.id, cp.states, this.run.lineage);
      await recoverSinks(this.run.job, cp?.states ?? []);
    } catch (e) {
      this.finish({
        status: 'failed',
        cause: `recovering sink output failed: ${(e as Error).message}`,
        restarts: this.restarts,
      });
      return;
    }
    // Stopped while the sinks recovered (a database sink awaits its server): no attempt starts.
    if (this.state.terminal) return;
    const attempt = TaskAttempt.launch(this.opts.launcher, ++this.attempts, {
      message: (from, m) => this.onMessage(from, m),
      exit: (from, info) => this.onExit(from, info),
      // The task process's stderr reaches the app's Logs tab; a previous attempt's last lines do not.
      stderr: (from, line) => {
        if (from === this.current && line.trim())
          this.emit({ type: 'log', level: 'error', kind: 'stderr', message: line });
      },
    });
    this.current = attempt;
    this.send(startMessage(this.run, attempt.number, cp, this.opts.metricsInterval));
    for (const s of this.samples.active()) this.send({ type: 'sample', nodeId: s.nodeId, port: s.port, on: true });
  }
}
