/**
 * In-process channels between tasks of the task process: bounded queues of batches with control
 * events in-band (Arroyo's SignalMessage: Watermark | Barrier | Idle | End).
 *
 * Invariants:
 * - Items leave a channel in the order they entered it; a barrier therefore follows every record
 *   emitted before it, and `end` is the last item a channel ever carries.
 * - Only batches count against the capacity. Control events are always accepted, so a producer that
 *   broadcasts a barrier never blocks half-way (which could deadlock alignment).
 * - A producer must `await waitWritable()` after emitting a batch: this is the back-pressure point.
 */
import type { RecordBatch } from '../../contracts/operator.ts';
import type { CheckpointBarrier } from '../../contracts/checkpoint.ts';

export type ChannelItem =
  | { kind: 'batch'; batch: RecordBatch }
  | { kind: 'watermark'; watermark: number }
  | { kind: 'idle'; idle: boolean }
  | { kind: 'barrier'; barrier: CheckpointBarrier }
  | { kind: 'end' };

export class Channel {
  private items: ChannelItem[] = [];
  private head = 0;
  private batches = 0;
  private spaceWaiters: Array<() => void> = [];
  constructor(
    readonly gate: InputGate,
    readonly index: number,
    readonly capacity: number,
    /** Human name: `upstreamNode#subtask`. */
    readonly name: string,
  ) {}

  push(item: ChannelItem): void {
    this.items.push(item);
    if (item.kind === 'batch') this.batches++;
    this.gate.wake();
  }

  get writable(): boolean {
    return this.batches < this.capacity;
  }
  get fill(): number {
    return Math.min(1, this.batches / this.capacity);
  }
  get size(): number {
    return this.items.length - this.head;
  }

  /** Wake every producer waiting for space (cancellation: they re-check and leave). */
  releaseWaiters(): void {
    const ws = this.spaceWaiters;
    this.spaceWaiters = [];
    for (const w of ws) w();
  }

  waitSpace(): Promise<void> {
    return new Promise((resolve) => this.spaceWaiters.push(resolve));
  }

  peek(): ChannelItem | undefined {
    return this.head < this.items.length ? this.items[this.head] : undefined;
  }

  take(): ChannelItem {
    const item = this.items[this.head++];
    if (this.head > 64 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    if (item.kind === 'batch') {
      this.batches--;
      if (this.spaceWaiters.length && this.writable) {
        const ws = this.spaceWaiters;
        this.spaceWaiters = [];
        for (const w of ws) w();
      }
    }
    return item;
  }
}

/** All input channels of one task subtask; `blocked` channels are held back by barrier alignment. */
export class InputGate {
  readonly channels: Channel[] = [];
  readonly blocked: boolean[] = [];
  private waiter: (() => void) | null = null;
  private cursor = 0;

  addChannel(capacity: number, name: string): Channel {
    const ch = new Channel(this, this.channels.length, capacity, name);
    this.channels.push(ch);
    this.blocked.push(false);
    return ch;
  }

  wake(): void {
    const w = this.waiter;
    if (w) {
      this.waiter = null;
      w();
    }
  }

  /** Next item from an unblocked channel, round-robin so that no input starves another. */
  poll(): { channel: number; item: ChannelItem } | null {
    const n = this.channels.length;
    for (let k = 0; k < n; k++) {
      const i = (this.cursor + k) % n;
      if (this.blocked[i]) continue;
      const ch = this.channels[i];
      if (ch.size > 0) {
        this.cursor = (i + 1) % n;
        return { channel: i, item: ch.take() };
      }
    }
    return null;
  }

  /** Resolves on the next push into any channel or an explicit `wake()` (mail for the task). */
  waitForData(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.waiter = resolve;
    });
  }

  async next(): Promise<{ channel: number; item: ChannelItem }> {
    for (;;) {
      const r = this.poll();
      if (r) return r;
      await new Promise<void>((resolve) => {
        this.waiter = resolve;
      });
    }
  }
}

/** The channels one producer subtask writes to (across all its network edges). */
export class OutputSet {
  readonly channels: Channel[] = [];
  add(ch: Channel): void {
    if (!this.channels.includes(ch)) this.channels.push(ch);
  }

  writable(): boolean {
    for (const ch of this.channels) if (!ch.writable) return false;
    return true;
  }

  async waitWritable(): Promise<void> {
    for (const ch of this.channels) {
      while (!ch.writable && !this.released) await ch.waitSpace();
    }
  }

  private released = false;
  /** Cancellation: no producer of this set waits for space any more. */
  releaseWaiters(): void {
    this.released = true;
    for (const ch of this.channels) ch.releaseWaiters();
  }

  broadcast(item: ChannelItem): void {
    for (const ch of this.channels) ch.push(item);
  }

  backPressure(): number {
    let m = 0;
    for (const ch of this.channels) m = Math.max(m, ch.fill);
    return m;
  }
}
