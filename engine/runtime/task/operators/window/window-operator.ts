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
 */
import type {
  OperatorContext,
  OperatorOutput,
  OperatorSnapshot,
  RecordBatch,
  StreamOperator,
} from '../../../../contracts/operator.ts';
import type { WindowPlan } from './config.ts';
import { compareTimers, timerIndexFor } from './timers.ts';
import { WindowEnv, type WindowProcessor } from './window-env.ts';
import { AlignedWindows } from './aligned-windows.ts';
import { SessionWindows } from './session-windows.ts';

/** The one keyed-state table of a window operator. */
export const WINDOW_TABLE = 'window';

export interface WindowOperatorState {
  /** null stands for -Infinity (JSON has no infinities). */
  watermark: number | null;
}

export class WindowOperator implements StreamOperator {
  private env: WindowEnv | null = null;
  private processor: WindowProcessor | null = null;

  constructor(private readonly plan: WindowPlan) {}

  async open(ctx: OperatorContext, out: OperatorOutput, restored?: { operator?: unknown[] }): Promise<void> {
    if (ctx.state === null) {
      throw new Error(`window '${this.plan.nodeId}' needs keyed state, but the runtime gave it none`);
    }
    const table = ctx.state.table<unknown>(WINDOW_TABLE);
    const layout = this.plan.assigner.kind === 'session' ? 'timer-entries' : 'window-entries';
    const timers = timerIndexFor(ctx.state.kind, table, ctx.keyGroupRange, layout);
    await timers.rebuild();
    const env = new WindowEnv(this.plan, ctx, out, table, timers);
    env.watermark = restoredWatermark(restored?.operator);
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

  async processWatermark(watermark: number): Promise<void> {
    const env = this.env!;
    if (!(watermark > env.watermark)) return;
    env.watermark = watermark;
    const due = await env.timers.due(watermark);
    if (due.length > 0) {
      // Finding due timers reads only window ends and timer times, which held-back updates never
      // change; firing reads accumulators, so they must be in state first.
      await this.processor!.flush?.();
      due.sort(compareTimers);
      await this.processor!.onTimers(due);
    }
    env.out.emitWatermark(watermark);
  }

  async snapshotState(checkpointId: number): Promise<OperatorSnapshot> {
    const env = this.env!;
    await this.processor!.flush?.();
    const w = env.watermark;
    const operator: WindowOperatorState = { watermark: Number.isFinite(w) ? w : w > 0 ? Number.MAX_VALUE : null };
    return { operator, keyed: env.ctx.state!.snapshot(checkpointId) };
  }

  async notifyCheckpointComplete(): Promise<void> {}

  async endInput(): Promise<void> {}

  async close(): Promise<void> {
    this.processor = null;
    this.env = null;
  }
}

function restoredWatermark(states: unknown[] | undefined): number {
  let w = Infinity;
  let any = false;
  for (const s of states ?? []) {
    if (s === null || typeof s !== 'object' || !('watermark' in s)) continue;
    const v = (s as WindowOperatorState).watermark;
    any = true;
    const num = typeof v === 'number' ? (v === Number.MAX_VALUE ? Infinity : v) : -Infinity;
    if (num < w) w = num;
  }
  return any ? w : -Infinity;
}
