/**
 * The window operator: a StreamOperator over keyed state (Flink's WindowOperator with the default
 * EventTimeTrigger). Everything that must survive a failure is in keyed state: window accumulators
 * and their timers. The operator state is only the current watermark.
 *
 * Protocol:
 * - `processBatch` assigns records to windows and updates them (at most one getMany + one
 *   writeMany). New windows are written at once; updates of windows already in state may be held
 *   back by the processor until its `flush`.
 * - `processWatermark(w)` fires every window whose end - 1 <= w, in window-end then key order,
 *   clears windows whose end - 1 + allowedLateness <= w, then forwards w. Held-back updates are
 *   flushed before due windows are read.
 * - `snapshotState` flushes held-back updates, then captures the keyed state.
 * - On restore with several old subtasks' operator states (rescale), the watermark is the smallest
 *   of theirs: no window that any of them still held can be treated as late by mistake.
 * The watermark, its operator state and the snapshot are KeyedOperator's (../base); the window's
 * timers are its own TimerIndex (timers.ts), kept in keyed state, not the base's in-memory queue.
 */
import type { RecordBatch } from '../../../../contracts/operator.ts';
import type { KeyedStateBackend } from '../../../../contracts/keyed-state.ts';
import { KeyedOperator } from '../base/keyed-operator.ts';
import type { WindowPlan } from './config.ts';
import { compareTimers, timerIndexFor } from './timers.ts';
import { WindowEnv, type WindowProcessor } from './window-env.ts';
import { AlignedWindows } from './aligned-windows.ts';
import { SessionWindows } from './session-windows.ts';

/** The one keyed-state table of a window operator. */
export const WINDOW_TABLE = 'window';

export class WindowOperator extends KeyedOperator {
  private env: WindowEnv | null = null;
  private processor: WindowProcessor | null = null;

  constructor(private readonly plan: WindowPlan) {
    super(`window '${plan.nodeId}'`);
  }

  protected async openState(state: KeyedStateBackend): Promise<void> {
    const table = state.table<unknown>(WINDOW_TABLE);
    const layout = this.plan.assigner.kind === 'session' ? 'timer-entries' : 'window-entries';
    const timers = timerIndexFor(state.kind, table, this.ctx.keyGroupRange, layout);
    await timers.rebuild();
    const env = new WindowEnv(this.plan, this.ctx, this.out, table, timers, () => this.watermark);
    this.env = env;
    const a = this.plan.assigner;
    this.processor = a.kind === 'session' ? new SessionWindows(env, a) : new AlignedWindows(env, a);
  }

  processBatch(batch: RecordBatch): Promise<void> {
    if (batch.rows.length === 0) return Promise.resolve();
    if (batch.kinds !== undefined && !this.plan.changelog) {
      // The plan decides the accumulators (retracting or not): a changelog it did not expect would be
      // counted as inserts.
      return Promise.reject(
        new Error(`window '${this.plan.nodeId}' received a changelog, but its job graph gives it an append-only input`),
      );
    }
    return this.processor!.processBatch(batch);
  }

  /** Fires and clears the windows whose timers are due (the watermark is already stored). */
  protected override async onWatermark(watermark: number): Promise<void> {
    const due = await this.env!.timers.due(watermark);
    if (due.length > 0) {
      // Finding due timers reads only window ends and timer times, which held-back updates never
      // change; firing reads accumulators, so they must be in state first.
      await this.processor!.flush?.();
      due.sort(compareTimers);
      await this.processor!.onTimers(due);
    }
  }

  protected override async prepareSnapshot(): Promise<void> {
    await this.processor!.flush?.();
  }

  override async close(): Promise<void> {
    this.processor = null;
    this.env = null;
  }
}
