/**
 * Bounded-out-of-orderness watermarks, exactly as Flink's BoundedOutOfOrdernessWatermarks:
 * watermark = maxTimestampSeen - maxOutOfOrderness - 1, emitted after each source batch, so a
 * bounded input gives the same watermarks (and the same late records) run after run.
 * The max timestamp is part of the source's checkpointed state, so a restored source continues
 * with the watermark it had.
 */
export class BoundedOutOfOrdernessWatermarks {
  maxTimestamp: number;
  constructor(
    readonly maxOutOfOrderness: number,
    restoredMax: number | null = null,
  ) {
    this.maxTimestamp = restoredMax ?? -Infinity;
  }

  /** Fold a batch's timestamps in (NaN = no event time: ignored). */
  observe(ts: readonly number[]): void {
    let m = this.maxTimestamp;
    for (let i = 0; i < ts.length; i++) if (ts[i] > m) m = ts[i];
    this.maxTimestamp = m;
  }

  /**
   * Like `observe`, and also returns, per record, the watermark as it stood just before that record
   * (`RecordBatch.sourceWatermarks`): -Infinity until the first timestamp.
   */
  observeEach(ts: readonly number[]): number[] {
    const before = new Array<number>(ts.length);
    const bound = this.maxOutOfOrderness + 1;
    let m = this.maxTimestamp;
    for (let i = 0; i < ts.length; i++) {
      before[i] = m - bound;
      if (ts[i] > m) m = ts[i];
    }
    this.maxTimestamp = m;
    return before;
  }

  /** Current watermark, or null before the first timestamp. */
  current(): number | null {
    return this.maxTimestamp === -Infinity ? null : this.maxTimestamp - this.maxOutOfOrderness - 1;
  }
}

/** Flink's idleness: a source subtask without data for `idleTimeout` ms is marked idle. */
export class IdlenessTimer {
  private lastActivity: number;
  idle = false;
  constructor(
    readonly idleTimeout: number | null,
    now: number,
  ) {
    this.lastActivity = now;
  }

  activity(now: number): boolean {
    this.lastActivity = now;
    const was = this.idle;
    this.idle = false;
    return was; // true when the status changed back to active
  }

  /** True when the subtask just became idle. */
  check(now: number): boolean {
    if (this.idleTimeout === null || this.idle) return false;
    if (now - this.lastActivity >= this.idleTimeout) {
      this.idle = true;
      return true;
    }
    return false;
  }
}
