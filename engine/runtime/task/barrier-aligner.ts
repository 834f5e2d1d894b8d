/**
 * Barrier alignment of one task subtask (docs/architecture.md, the checkpoint protocol; Flink's SingleCheckpointBarrierHandler).
 *
 * Rules:
 * - exactly-once: a channel that delivered barrier n is blocked until barrier n arrived on every
 *   channel that has not finished; then all channels unblock and the snapshot is taken.
 * - at-least-once: nothing is blocked; the snapshot is taken when the last barrier n arrives.
 * - Barrier ids only grow: a barrier older than the current or last completed one is dropped; a newer
 *   one while aligning abandons the older alignment (that checkpoint was aborted) and starts over.
 * - A channel that ends while others are aligning no longer counts.
 */
import type { CheckpointBarrier } from '../../contracts/checkpoint.ts';
import type { InputGate } from './channel.ts';

export class BarrierAligner {
  private current: CheckpointBarrier | null = null;
  private arrived: boolean[];
  private lastId = 0;
  alignStart = 0;
  /** Wall time when the first barrier of the current alignment arrived. */
  firstBarrierAt = 0;

  constructor(
    private readonly gate: InputGate,
    private readonly finished: boolean[],
    private readonly exactlyOnce: boolean,
  ) {
    this.arrived = gate.channels.map(() => false);
  }

  /** Returns the barrier when alignment completed with this arrival. */
  onBarrier(channel: number, barrier: CheckpointBarrier): CheckpointBarrier | null {
    if (barrier.id <= this.lastId) return null;
    if (this.current && barrier.id < this.current.id) return null;
    if (this.current && barrier.id > this.current.id) this.reset();
    if (!this.current) {
      this.current = barrier;
      this.firstBarrierAt = Date.now();
    }
    this.arrived[channel] = true;
    if (this.exactlyOnce) this.gate.blocked[channel] = true;
    return this.checkComplete();
  }

  onEnd(): CheckpointBarrier | null {
    return this.current ? this.checkComplete() : null;
  }

  private checkComplete(): CheckpointBarrier | null {
    for (let i = 0; i < this.arrived.length; i++) {
      if (!this.arrived[i] && !this.finished[i]) return null;
    }
    const b = this.current!;
    this.lastId = b.id;
    this.reset();
    return b;
  }

  private reset(): void {
    this.current = null;
    for (let i = 0; i < this.arrived.length; i++) {
      this.arrived[i] = false;
      this.gate.blocked[i] = false;
    }
  }

  /** Channel finished state is shared with the task; ids are remembered across restores. */
  setLastId(id: number): void {
    this.lastId = id;
  }
}
