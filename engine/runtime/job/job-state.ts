/**
 * The lifecycle of one run (Flink's JobStatus), with every allowed transition in one table so the
 * job master cannot drift into a state combination nobody designed.
 *
 *   created ──▶ running ──▶ finishing ──▶ finished
 *      │  ▲        │  ▲          │
 *      ▼  │        ▼  │          └──▶ stopped (a stop closed the tasks)
 *   restarting ◀───┘  │
 *      └──────────────┘   any non-terminal state ──▶ stopped | failed | canceled
 *
 * - `restarting` may repeat (a task process that dies again before it is ready).
 * - `finishing`: the tasks were told to close (all input committed, or a stop); only their exit
 *   follows, so failures reported meanwhile no longer restart anything.
 * - finished, stopped, failed and canceled are terminal.
 */
import type { JobStatus } from '../../contracts/run-events.ts';
import { IllegalJobTransitionError } from './errors.ts';

const ENDS: readonly JobStatus[] = ['stopped', 'failed', 'canceled'];

const TRANSITIONS: Readonly<Record<JobStatus, readonly JobStatus[]>> = {
  created: ['running', 'restarting', 'finishing', ...ENDS],
  running: ['restarting', 'finishing', ...ENDS],
  restarting: ['running', 'restarting', 'finishing', ...ENDS],
  finishing: ['finished', 'stopped', 'canceled'],
  finished: [],
  stopped: [],
  failed: [],
  canceled: [],
};

export function isTerminal(status: JobStatus): boolean {
  return TRANSITIONS[status].length === 0;
}

export function canTransition(from: JobStatus, to: JobStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

export class JobStateMachine {
  private current: JobStatus = 'created';

  /** `onChange` hears every state entered, `created` included once `announce` is called. */
  constructor(private readonly onChange: (status: JobStatus, cause?: string) => void) {}

  get status(): JobStatus {
    return this.current;
  }

  get terminal(): boolean {
    return isTerminal(this.current);
  }

  /** Reports the initial state (listeners subscribe before the run starts). */
  announce(): void {
    this.onChange(this.current);
  }

  to(next: JobStatus, cause?: string): void {
    if (!canTransition(this.current, next)) {
      throw new IllegalJobTransitionError(`job state ${this.current} -> ${next} is not allowed`);
    }
    this.current = next;
    this.onChange(next, cause);
  }
}
