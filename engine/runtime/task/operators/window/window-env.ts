/**
 * What the two window processors (aligned windows, session windows) share: the plan, the state
 * table, the timers, the current watermark, key routing, result rows and too-late records.
 */
import type { OperatorContext, OperatorOutput, RecordBatch, Row } from '../../../../contracts/operator.ts';
import type { StateTable } from '../../../../contracts/keyed-state.ts';
import { keyGroupOf } from '../../../../state/keygroups.ts';
import { clampTime } from './state-keys.ts';
import { isoTime } from '../../../../time/windows/index.ts';
import type { WindowPlan } from './config.ts';
import type { Timer, TimerIndex } from './timers.ts';

export interface WindowProcessor {
  processBatch(batch: RecordBatch): Promise<void>;
  /** Handles due timers (sorted by `compareTimers`): fires and/or clears their windows. */
  onTimers(timers: Timer[]): Promise<void>;
  /**
   * Writes state updates the processor holds back (see AlignedWindows). Called before due
   * timers are handled and before a snapshot: after it, the table holds every window's state.
   */
  flush?(): Promise<void>;
}

export class WindowEnv {
  private lateRows: Row[] = [];
  private lateTs: number[] = [];

  /** `currentWatermark`: the operator's watermark (KeyedOperator keeps it and its state). */
  constructor(
    readonly plan: WindowPlan,
    readonly ctx: OperatorContext,
    readonly out: OperatorOutput,
    readonly table: StateTable<unknown>,
    readonly timers: TimerIndex,
    private readonly currentWatermark: () => number,
  ) {}

  /** The operator's input watermark: -Infinity before the first one, so nothing is late yet. */
  get watermark(): number {
    return this.currentWatermark();
  }

  /** Key group of a record key; a global window keeps its single key in group 0 (subtask 0). */
  keyGroupOf(key: string): number {
    if (this.plan.key === null) return 0;
    const g = keyGroupOf(key, this.ctx.maxParallelism);
    const r = this.ctx.keyGroupRange;
    if (g < r.start || g > r.end) {
      throw new Error(
        `window '${this.plan.nodeId}' subtask ${this.ctx.subtask} received key ${JSON.stringify(key)} of key group ` +
          `${g}, outside its key groups ${r.start}-${r.end}: its input is not partitioned by the window's keyBy`,
      );
    }
    return g;
  }

  keyOf(row: Row): string {
    return this.plan.key === null ? '' : this.plan.key.keyOf(row);
  }

  keyValues(row: Row): unknown[] {
    return this.plan.key === null ? [] : this.plan.key.valuesOf(row);
  }

  /**
   * Flink's `isWindowLate`: the window's state is (or would already be) cleared. `sourceWatermark`
   * is the record's `RecordBatch.sourceWatermarks` entry: judging against it too makes the verdict
   * independent of how input channels interleave (see engine/runtime/operator.ts).
   */
  isWindowLate(end: number, sourceWatermark = -Infinity): boolean {
    const w = sourceWatermark > this.watermark ? sourceWatermark : this.watermark;
    return end - 1 + this.plan.allowedLateness <= w;
  }

  /** The first timer of a new window: its firing time, or its cleanup time if it fires at once. */
  firstTimerTime(end: number): number {
    return end - 1 > this.watermark ? clampTime(end - 1) : this.cleanupTime(end);
  }

  cleanupTime(end: number): number {
    return clampTime(end - 1 + this.plan.allowedLateness);
  }

  /** One result row: window bounds, key columns in keyBy order, aggregates by alias. */
  resultRow(start: number, end: number, keyValues: readonly unknown[], accs: readonly unknown[]): Row {
    const row: Row = { window_start: isoTime(start), window_end: isoTime(end) };
    const cols = this.plan.key?.columns;
    if (cols) for (let i = 0; i < cols.length; i++) row[cols[i]] = keyValues[i];
    this.plan.aggregates.results(accs, row);
    return row;
  }

  noEventTime(): Error {
    return new Error(
      `window '${this.plan.nodeId}' received a record without an event time: set eventTime on its source`,
    );
  }

  late(row: Row, ts: number): void {
    this.lateRows.push(row);
    this.lateTs.push(ts);
  }

  /** Too-late records of this batch: to the `late` port when wired, else dropped and counted. */
  flushLate(): void {
    if (this.lateRows.length === 0) return;
    if (this.plan.latePortWired) {
      this.out.emit({ rows: this.lateRows, ts: this.lateTs }, 'late');
    } else {
      this.ctx.metrics.lateRecords(this.lateRows.length);
    }
    this.lateRows = [];
    this.lateTs = [];
  }
}

/** Result rows with their timestamps, emitted as one batch in window-end, key order. */
export class ResultBuffer {
  private items: Array<{ end: number; key: string; row: Row }> = [];

  add(end: number, key: string, row: Row): void {
    this.items.push({ end, key, row });
  }

  /** Stable sort: several refirings of one window keep their record order. */
  flush(out: OperatorOutput, sorted: boolean): void {
    if (this.items.length === 0) return;
    const items = this.items;
    this.items = [];
    if (!sorted) items.sort((a, b) => a.end - b.end || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const rows = new Array<Row>(items.length);
    const ts = new Array<number>(items.length);
    for (let i = 0; i < items.length; i++) {
      rows[i] = items[i].row;
      ts[i] = items[i].end - 1;
    }
    out.emit({ rows, ts });
  }
}
