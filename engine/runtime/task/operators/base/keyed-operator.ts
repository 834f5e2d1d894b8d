/**
 * The base of the operators behind a keyBy (window, aggregate, top-N, the joins): Flink's
 * AbstractStreamOperator with its keyed state backend and timer service. Rules, on top of
 * StreamOperatorBase's and contracts/operator.ts:
 * - Keyed state holds everything that must survive a failure except the input watermark, which is
 *   the whole operator state: `{ watermark }`, JSON, -Infinity as null and +Infinity as
 *   Number.MAX_VALUE. The runtime gives a keyed operator a KeyedStateBackend; `open` refuses to run
 *   without one, naming the node (`what`).
 * - Restore: after a rescale several old subtasks' states arrive, and the watermark starts at the
 *   smallest of theirs, so that nothing any of them still held is taken for late. No state (a fresh
 *   start) is -Infinity, Flink's Long.MIN_VALUE: nothing is late before the first watermark.
 *   `openState` then opens the subclass's tables and rebuilds its timers from them (the state of
 *   the key groups this subtask owns now).
 * - Watermark: one that does not advance is ignored. One that does is stored first (records that
 *   follow are judged against it), then due timers fire (`onWatermark`, by default the `timers`
 *   queue and `onTimers`), and only then is it forwarded: results of the timers it fires precede it.
 * - Timers: `timers` is an in-memory queue of (time, state key) hints, never snapshotted: keyed
 *   state is the truth and `openState` rebuilds the queue from it. A hint may be stale (a key
 *   refreshed or fired since); `onTimers` re-reads state before emitting or dropping anything.
 * - Snapshot: `prepareSnapshot` writes anything held back in memory to keyed state, then the
 *   watermark and the backend's snapshot are captured, before any later record (the barrier is
 *   aligned by the runtime).
 * - No side effects outside keyed state, so checkpoint completion, end of input (the final
 *   +Infinity watermark has fired every timer already) and close have nothing to do by default.
 */
import type { OperatorSnapshot } from '../../../../contracts/operator.ts';
import type { KeyedStateBackend } from '../../../../contracts/keyed-state.ts';
import { ExpiryQueue } from './expiry-queue.ts';
import { StreamOperatorBase } from './stream-operator-base.ts';

/** The operator state of a keyed operator: its input watermark (null = -Infinity). */
export interface KeyedOperatorState {
  watermark: number | null;
}

export abstract class KeyedOperator extends StreamOperatorBase {
  /** Flink's initial watermark is Long.MIN_VALUE: nothing is late before the first watermark. */
  protected watermark = -Infinity;
  protected state!: KeyedStateBackend;
  /** Event-time timers: (time, state key) hints that `onWatermark` hands to `onTimers` when due. */
  protected readonly timers = new ExpiryQueue();

  /** `what` names the node in errors: `aggregate 'counts'`. */
  constructor(protected readonly what: string) {
    super();
  }

  protected override async setup(restored: { operator?: unknown[] } | undefined): Promise<void> {
    if (this.ctx.state === null) throw new Error(`${this.what} needs keyed state, but the runtime gave it none`);
    this.state = this.ctx.state;
    this.watermark = restoredWatermark(restored?.operator);
    await this.openState(this.state);
  }

  /** Opens the operator's tables and rebuilds its timers from them. */
  protected abstract openState(state: KeyedStateBackend): Promise<void>;

  override async processWatermark(watermark: number): Promise<void> {
    if (!(watermark > this.watermark)) return;
    this.watermark = watermark;
    await this.onWatermark(watermark);
    this.out.emitWatermark(watermark);
  }

  /** Fires what is due at `watermark` (already stored): the due `timers` by default. */
  protected async onWatermark(watermark: number): Promise<void> {
    if (this.timers.size === 0) return;
    const due = this.timers.popDue(watermark);
    if (due.length > 0) await this.onTimers(due, watermark);
  }

  /** The distinct state keys with a timer at or before `watermark`, removed from the queue. */
  protected async onTimers(_due: string[], _watermark: number): Promise<void> {}

  /** The lateness watermark of record `i`: max(operator watermark, its source's watermark). */
  protected latenessWatermark(sourceWatermarks: readonly number[] | undefined, i: number): number {
    const sw = sourceWatermarks === undefined ? -Infinity : sourceWatermarks[i];
    return sw > this.watermark ? sw : this.watermark;
  }

  /** An event-time operator's error for a record without a time. */
  protected noEventTime(): Error {
    return new Error(`${this.what} received a record without an event time: set eventTime on its source`);
  }

  /** Writes state held back in memory, so that the keyed snapshot holds all of it. */
  protected async prepareSnapshot(): Promise<void> {}

  override async snapshotState(checkpointId: number): Promise<OperatorSnapshot> {
    await this.prepareSnapshot();
    const operator: KeyedOperatorState = { watermark: encodeWatermark(this.watermark) };
    return { operator, keyed: this.state.snapshot(checkpointId) };
  }
}

function encodeWatermark(w: number): number | null {
  return w === -Infinity ? null : w === Infinity ? Number.MAX_VALUE : w;
}

/** The smallest of the restored subtask states' watermarks; -Infinity without any. */
function restoredWatermark(states: unknown[] | undefined): number {
  let w = Infinity;
  let any = false;
  for (const s of states ?? []) {
    if (s === null || typeof s !== 'object' || !('watermark' in s)) continue;
    any = true;
    const v = (s as KeyedOperatorState).watermark;
    const num = typeof v === 'number' ? (v === Number.MAX_VALUE ? Infinity : v) : -Infinity;
    if (num < w) w = num;
  }
  return any ? w : -Infinity;
}
