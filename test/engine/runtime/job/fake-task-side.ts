/**
 * An in-memory task side for JobMaster tests: a TaskLauncher whose processes answer the task
 * protocol (engine/runtime/common/task-protocol.ts) as the real task process does, with no
 * operators behind it. By default each process answers `start` with `ready`, `trigger` n with an
 * ack from every operator subtask of the plan, `notify` n with `notified` n and `close` with
 * `closed` and exit code 0. A test's `script` sees every message first and may answer it itself
 * (return true), e.g. to decline a checkpoint, hold acks, or die before committing.
 * Messages travel asynchronously both ways, as over IPC; `settle()` (coordinator-harness.ts) lets
 * them arrive. Every message is logged in order (`→2 trigger 3` to attempt 2, `←2 ack 3` back).
 */
import type { TaskLauncher, TaskProcessHandle } from '../../../../engine/runtime/job/api.ts';
import type { HostToTask, TaskToHost } from '../../../../engine/runtime/common/task-protocol.ts';
import type { PhysicalPlan } from '../../../../engine/runtime/common/plan.ts';
import type { CheckpointBarrier } from '../../../../engine/contracts/checkpoint.ts';

export interface ExitInfo {
  code: number | null;
  signal: string | null;
}

export interface FakeTaskOptions {
  /** Sees each host message first; true when it answered itself (no default answer then). */
  script?: (task: FakeTaskProcess, m: HostToTask) => boolean | void;
  /** The operator state a subtask snapshots for barrier n (default: its position, n). */
  stateOf?: (operatorId: string, subtask: number, barrier: CheckpointBarrier) => unknown;
}

export class FakeTaskProcess implements TaskProcessHandle {
  readonly pid = undefined;
  readonly received: HostToTask[] = [];
  exited: ExitInfo | null = null;
  private readonly messageListeners: Array<(m: unknown) => void> = [];
  private readonly exitListeners: Array<(info: ExitInfo) => void> = [];

  constructor(
    readonly attempt: number,
    private readonly subtasks: ReadonlyArray<{ operatorId: string; subtask: number; parallelism: number }>,
    private readonly log: string[],
    private readonly opts: FakeTaskOptions,
  ) {}

  send(message: unknown): void {
    if (this.exited) return;
    const m = structuredClone(message) as HostToTask;
    this.received.push(m);
    this.log.push(`→${this.attempt} ${describe(m)}`);
    setImmediate(() => {
      if (this.exited) return;
      if (this.opts.script?.(this, m)) return;
      this.answer(m);
    });
  }

  onMessage(listener: (m: unknown) => void): void {
    this.messageListeners.push(listener);
  }

  onExit(listener: (info: ExitInfo) => void): void {
    if (this.exited) listener(this.exited);
    else this.exitListeners.push(listener);
  }

  kill(signal: 'SIGKILL' | 'SIGTERM' = 'SIGKILL'): void {
    this.exit({ code: null, signal });
  }

  /** What the real task process would say to `m`. */
  answer(m: HostToTask): void {
    switch (m.type) {
      case 'start':
        this.reply({ type: 'ready' });
        break;
      case 'trigger':
        for (const s of this.subtasks) this.ack(m.barrier, s);
        break;
      case 'notify':
        this.reply({ type: 'notified', checkpointId: m.checkpointId });
        break;
      case 'close':
        this.reply({ type: 'closed' });
        setImmediate(() => this.exit({ code: 0, signal: null }));
        break;
      case 'sample':
        break;
    }
  }

  /** One subtask's acknowledgement of `barrier`, with its state and statistics. */
  ack(barrier: CheckpointBarrier, s: { operatorId: string; subtask: number; parallelism: number }): void {
    const state = this.opts.stateOf?.(s.operatorId, s.subtask, barrier) ?? { position: barrier.id };
    this.reply({
      type: 'ack',
      ack: {
        checkpointId: barrier.id,
        states: [{ ...s, operator: { state, watermark: null } }],
        stats: [
          {
            operatorId: s.operatorId,
            subtask: s.subtask,
            startDelay: 0,
            alignmentDuration: 0,
            syncDuration: 1,
            asyncDuration: 1,
            checkpointedBytes: 10,
            fullBytes: 10,
          },
        ],
      },
    });
  }

  reply(m: TaskToHost): void {
    if (this.exited) return;
    this.log.push(`←${this.attempt} ${describe(m)}`);
    const copy = structuredClone(m);
    setImmediate(() => {
      if (!this.exited) for (const l of this.messageListeners) l(copy);
    });
  }

  /** The process is gone (a crash, a kill, or a clean exit). */
  exit(info: ExitInfo): void {
    if (this.exited) return;
    this.exited = info;
    this.log.push(`×${this.attempt} ${info.signal ?? `code ${info.code}`}`);
    setImmediate(() => {
      for (const l of this.exitListeners) l(info);
    });
  }
}

export class FakeLauncher implements TaskLauncher {
  readonly tasks: FakeTaskProcess[] = [];
  /** Host and task messages of every attempt, in the order they were sent. */
  readonly log: string[] = [];

  constructor(
    private readonly plan: PhysicalPlan,
    private readonly opts: FakeTaskOptions = {},
  ) {}

  launch(): FakeTaskProcess {
    const subtasks = this.plan.nodes.flatMap((n) =>
      Array.from({ length: n.parallelism }, (_, subtask) => ({
        operatorId: n.id,
        subtask,
        parallelism: n.parallelism,
      })),
    );
    const task = new FakeTaskProcess(this.tasks.length + 1, subtasks, this.log, this.opts);
    this.tasks.push(task);
    return task;
  }

  /** The newest attempt's process. */
  get current(): FakeTaskProcess {
    const t = this.tasks[this.tasks.length - 1];
    if (!t) throw new Error('no task process was launched');
    return t;
  }
}

function describe(m: HostToTask | TaskToHost): string {
  switch (m.type) {
    case 'trigger':
      return `${m.barrier.kind === 'savepoint' ? 'savepoint' : 'trigger'} ${m.barrier.id}`;
    case 'notify':
    case 'notified':
    case 'decline':
      return `${m.type} ${m.checkpointId}`;
    case 'ack':
      return `ack ${m.ack.checkpointId}`;
    case 'start':
      return `start${m.restore ? ` from ${m.restore.checkpointId}` : ''}`;
    default:
      return m.type;
  }
}
