/**
 * Watermarks kept per split and combined, as Flink's source operator does with
 * `WatermarkOutputMultiplexer` when a source reader has several splits (Kafka partitions):
 * - Each split has its own bounded-out-of-orderness generator (max timestamp seen − bound − 1) and
 *   its own idleness timer: a split without records for `idleTimeout` ms is idle until its next record.
 * - The combined watermark is the minimum over the splits that are not idle; a non-idle split that
 *   has seen no timestamp yet holds it back (null), so a slow partition never loses its records to
 *   a fast one's watermark.
 * - Every split idle, or no split at all (more subtasks than partitions), makes the reader idle.
 * - A finished split (bounded: it reached its stop offset) is removed and holds nothing back.
 * The max timestamp per split is part of the reader's checkpointed position, so a restored reader
 * resumes each partition's watermark where it was, whichever subtask now owns the partition.
 */

export interface CombinedWatermark {
  /** Min over non-idle splits; null while one of them has no timestamp yet (or all are idle). */
  watermark: number | null;
  /** Every split idle, or none assigned. */
  idle: boolean;
}

interface SplitState {
  maxTimestamp: number;
  lastActivity: number;
  idle: boolean;
  finished: boolean;
}

export class SplitWatermarks {
  private readonly splits = new Map<string, SplitState>();

  constructor(
    readonly maxOutOfOrderness: number,
    readonly idleTimeout: number | null,
  ) {}

  /** A split this reader now owns; `restoredMax`: its max timestamp from the checkpoint. */
  add(split: string, restoredMax: number | null, now: number): void {
    if (!this.splits.has(split))
      this.splits.set(split, {
        maxTimestamp: restoredMax ?? -Infinity,
        lastActivity: now,
        idle: false,
        finished: false,
      });
  }

  /** A finished split no longer holds the watermark back (its max timestamp stays for the checkpoint). */
  finish(split: string): void {
    const s = this.splits.get(split);
    if (s) s.finished = true;
  }

  /** One record of `split` at event time `ts` (NaN: no event time, still activity). */
  observe(split: string, ts: number, now: number): void {
    const s = this.splits.get(split);
    if (!s) return;
    s.lastActivity = now;
    s.idle = false;
    if (ts > s.maxTimestamp) s.maxTimestamp = ts;
  }

  /** The split's largest timestamp so far (null: none), for the checkpoint. */
  maxTimestamp(split: string): number | null {
    const m = this.splits.get(split)?.maxTimestamp;
    return m === undefined || m === -Infinity ? null : m;
  }

  /** Marks splits idle whose timeout passed, then combines. */
  combine(now: number): CombinedWatermark {
    let min = Infinity;
    let active = 0;
    for (const s of this.splits.values()) {
      if (s.finished) continue;
      if (!s.idle && this.idleTimeout !== null && now - s.lastActivity >= this.idleTimeout) s.idle = true;
      if (s.idle) continue;
      active++;
      const w = s.maxTimestamp === -Infinity ? -Infinity : s.maxTimestamp - this.maxOutOfOrderness - 1;
      if (w < min) min = w;
    }
    if (active === 0) return { watermark: null, idle: true };
    return { watermark: min === -Infinity ? null : min, idle: false };
  }
}
