/**
 * The per-channel watermark valve of a multi-input task (Flink's StatusWatermarkValve).
 *
 * Rules:
 * - The merged watermark is the minimum over channels that are neither idle nor finished.
 * - It only moves forward: a channel that becomes active again with a lower watermark does not pull
 *   it back (its records may then be late, as in Flink).
 * - A finished channel counts as an active channel at +Infinity; when every channel has finished the
 *   result is +Infinity, and finished + idle channels only gives +Infinity too (as in Flink).
 * - When every unfinished channel is idle the task itself is idle (propagated downstream); with no
 *   finished channel the merged watermark then stays where it is.
 */
export interface ChannelWatermark {
  watermark: number | null;
  idle: boolean;
  finished: boolean;
}

export class WatermarkValve {
  readonly channels: ChannelWatermark[];
  private current: number;

  constructor(channelCount: number, initial = -Infinity) {
    this.channels = Array.from({ length: channelCount }, () => ({ watermark: null, idle: false, finished: false }));
    this.current = initial;
    if (initial > -Infinity) for (const c of this.channels) c.watermark = initial;
  }

  get watermark(): number {
    return this.current;
  }

  /** True when every unfinished channel is idle (and at least one is). */
  get allIdle(): boolean {
    let anyIdle = false;
    for (const c of this.channels) {
      if (c.finished) continue;
      if (!c.idle) return false;
      anyIdle = true;
    }
    return anyIdle;
  }

  /** Returns the new merged watermark when it advanced, else null. */
  onWatermark(channel: number, wm: number): number | null {
    const c = this.channels[channel];
    if (c.watermark === null || wm > c.watermark) c.watermark = wm;
    c.idle = false;
    return this.recompute();
  }

  onIdle(channel: number, idle: boolean): number | null {
    this.channels[channel].idle = idle;
    return this.recompute();
  }

  onEnd(channel: number): number | null {
    const c = this.channels[channel];
    c.finished = true;
    c.watermark = Infinity;
    return this.recompute();
  }

  private recompute(): number | null {
    let min = Infinity;
    let active = 0;
    for (const c of this.channels) {
      // A finished channel stays active at +Infinity (Flink: it sent MAX_WATERMARK before ending).
      if (c.idle && !c.finished) continue;
      active++;
      // A channel without any watermark yet holds everything back.
      const w = c.watermark === null ? -Infinity : c.watermark;
      if (w < min) min = w;
    }
    if (active === 0) return null;
    if (min > this.current) {
      this.current = min;
      return min;
    }
    return null;
  }
}
