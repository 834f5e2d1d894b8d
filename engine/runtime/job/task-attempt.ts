/**
 * One attempt of a run: the task process the launcher started for it and what that process
 * reported. The job master keeps only the current attempt; whatever an earlier one still says
 * (its last messages, its exit, its stderr) is dropped by the master, never acted on.
 */
import type { NormalizedJob } from '../../graph/types.ts';
import type { CompletedCheckpoint } from '../../contracts/checkpoint-storage.ts';
import { storageRootOf } from '../../checkpoint/storage-factory.ts';
import type { PhysicalPlan } from '../common/plan.ts';
import type { HostToTask, TaskStartMessage, TaskToHost } from '../common/task-protocol.ts';
import type { TaskLauncher, TaskProcessHandle } from './api.ts';
import { traceFromTask, traceToTask } from './protocol-trace.ts';

export interface ExitInfo {
  code: number | null;
  signal: string | null;
}

export interface AttemptListener {
  message(from: TaskAttempt, message: TaskToHost): void;
  exit(from: TaskAttempt, info: ExitInfo): void;
  stderr(from: TaskAttempt, line: string): void;
}

export class TaskAttempt {
  /** Set when every source is exhausted: the last checkpoint id triggered before that. */
  exhaustedAfter: number | null = null;
  /** Every subtask processed end of input (`finished`). */
  tasksFinished = false;

  private constructor(
    readonly number: number,
    private readonly proc: TaskProcessHandle,
  ) {}

  /** Launches the attempt's task process and routes what it says to `on`. */
  static launch(launcher: TaskLauncher, number: number, on: AttemptListener): TaskAttempt {
    const attempt = new TaskAttempt(number, launcher.launch());
    attempt.proc.onMessage((raw) => {
      const m = raw as TaskToHost;
      traceFromTask(m);
      on.message(attempt, m);
    });
    attempt.proc.onExit((info) => on.exit(attempt, info));
    attempt.proc.onStderr?.((line) => on.stderr(attempt, line));
    return attempt;
  }

  send(m: HostToTask): void {
    traceToTask(m);
    this.proc.send(m);
  }

  kill(): void {
    this.proc.kill('SIGKILL');
  }
}

/** The `start` message of an attempt restoring `cp` (null: from the beginning). */
export function startMessage(
  run: { job: NormalizedJob; plan: PhysicalPlan; lineage: string },
  attempt: number,
  cp: CompletedCheckpoint | null,
  metricsInterval: number,
): TaskStartMessage {
  const { job, plan, lineage } = run;
  const settings = job.settings;
  return {
    type: 'start',
    job,
    plan,
    attempt,
    lineage,
    restore: cp ? { checkpointId: cp.id, states: cp.states } : null,
    checkpointDir:
      settings.stateBackend === 'memory' ? '' : storageRootOf({ jobName: job.name, settings, baseDir: job.baseDir }),
    metricsInterval,
  };
}
