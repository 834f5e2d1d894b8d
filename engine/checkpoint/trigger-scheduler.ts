/**
 * When the next periodic checkpoint may start (Flink's CheckpointRequestDecider, reduced to one
 * checkpoint in flight):
 * - never while another checkpoint or savepoint is in flight;
 * - not before `lastTrigger + interval`;
 * - not before `lastCompletion + minPause` (the pause is measured from the last completion);
 * - queued on-demand requests (savepoints, final checkpoints) run as soon as nothing is in flight,
 *   before the next periodic one, and are not held back by `minPause`.
 * The scheduler only keeps the timer; the coordinator tells it when checkpoints start and end.
 */
import type { CheckpointTimers, TimerHandle } from './timers.ts';

export class TriggerScheduler {
  private timer: TimerHandle | null = null;
  private lastTrigger: number | null = null;
  private lastCompletion: number | null = null;
  private running = false;

  constructor(
    private readonly interval: number | null,
    private readonly minPause: number,
    private readonly timers: CheckpointTimers,
    private readonly firePeriodic: () => void,
  ) {}

  /** Arms the first periodic trigger one interval from now (nothing when checkpointing is off). */
  start(): void {
    this.running = true;
    this.lastTrigger ??= this.timers.now();
    this.arm();
  }

  stop(): void {
    this.running = false;
    this.disarm();
  }

  /** A checkpoint (of any kind) started: no periodic trigger until it ends. */
  onTriggered(time: number): void {
    this.lastTrigger = time;
    this.disarm();
  }

  /** The in-flight checkpoint ended; `completed` false for failures. */
  onEnded(time: number, completed: boolean): void {
    if (completed) this.lastCompletion = time;
    this.arm();
  }

  /** Earliest time the next periodic checkpoint may start. */
  nextPeriodicTime(): number | null {
    if (this.interval === null) return null;
    const now = this.timers.now();
    let at = (this.lastTrigger ?? now) + this.interval;
    if (this.lastCompletion !== null) at = Math.max(at, this.lastCompletion + this.minPause);
    return Math.max(at, now);
  }

  private arm(): void {
    this.disarm();
    if (!this.running) return;
    const at = this.nextPeriodicTime();
    if (at === null) return;
    this.timer = this.timers.setTimeout(() => {
      this.timer = null;
      if (this.running) this.firePeriodic();
    }, at - this.timers.now());
  }

  private disarm(): void {
    if (this.timer) this.timers.clearTimeout(this.timer);
    this.timer = null;
  }
}
