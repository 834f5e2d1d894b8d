/** Test collaborators of the coordinator: a manual clock and a recording gateway. */
import type { CheckpointTimers, TimerHandle } from '../../../engine/checkpoint/timers.ts';
import type { CheckpointGateway } from '../../../engine/checkpoint/coordinator.ts';
import type { CheckpointAck, CheckpointBarrier, SubtaskStateSnapshot } from '../../../engine/contracts/checkpoint.ts';

interface Timer extends TimerHandle {
  at: number;
  fn: () => void;
  seq: number;
}

export class ManualTimers implements CheckpointTimers {
  private t = 0;
  private seq = 0;
  private readonly timers = new Set<Timer>();

  now(): number {
    return this.t;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const timer = { __timer: true as const, at: this.t + Math.max(0, ms), fn, seq: this.seq++ };
    this.timers.add(timer);
    return timer;
  }

  clearTimeout(handle: TimerHandle): void {
    this.timers.delete(handle as Timer);
  }

  get pendingTimers(): number {
    return this.timers.size;
  }

  /** Moves time forward, firing due timers in order (and the microtasks they cause). */
  async advance(ms: number): Promise<void> {
    const end = this.t + ms;
    for (;;) {
      let next: Timer | null = null;
      for (const timer of this.timers) {
        if (timer.at <= end && (!next || timer.at < next.at || (timer.at === next.at && timer.seq < next.seq)))
          next = timer;
      }
      if (!next) break;
      this.timers.delete(next);
      this.t = next.at;
      next.fn();
      await settle();
    }
    this.t = end;
    await settle();
  }
}

/** Lets promise chains (storage writes, ...) run to completion. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
}

export class RecordingGateway implements CheckpointGateway {
  readonly triggered: CheckpointBarrier[] = [];
  readonly completed: number[] = [];
  readonly aborted: Array<{ id: number; reason: string }> = [];
  readonly log: string[] = [];

  triggerCheckpoint(barrier: CheckpointBarrier): void {
    this.triggered.push(barrier);
    this.log.push(`trigger ${barrier.kind} ${barrier.id}`);
  }
  notifyCheckpointComplete(id: number): void {
    this.completed.push(id);
    this.log.push(`complete ${id}`);
  }
  abortCheckpoint(id: number, reason: string): void {
    this.aborted.push({ id, reason });
    this.log.push(`abort ${id}`);
  }
  get last(): CheckpointBarrier {
    return this.triggered[this.triggered.length - 1];
  }
}

export const SUBTASKS = [
  { operatorId: 'src', subtask: 0 },
  { operatorId: 'win', subtask: 0 },
  { operatorId: 'win', subtask: 1 },
];

export function ackFor(
  checkpointId: number,
  operatorId: string,
  subtask: number,
  opts: { state?: Partial<SubtaskStateSnapshot>; bytes?: number; sync?: number } = {},
): CheckpointAck {
  const bytes = opts.bytes ?? 100;
  return {
    checkpointId,
    states: [
      {
        operatorId,
        subtask,
        parallelism: operatorId === 'src' ? 1 : 2,
        operator: { pos: checkpointId },
        ...opts.state,
      },
    ],
    stats: [
      {
        operatorId,
        subtask,
        startDelay: 1,
        alignmentDuration: 2,
        syncDuration: opts.sync ?? 3,
        asyncDuration: 4,
        checkpointedBytes: bytes,
        fullBytes: bytes * 2,
      },
    ],
  };
}

export function ackAll(id: number): CheckpointAck[] {
  return SUBTASKS.map((s) => ackFor(id, s.operatorId, s.subtask));
}
