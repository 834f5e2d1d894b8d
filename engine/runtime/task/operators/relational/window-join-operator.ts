/**
 * `join.window`: Flink's window join. Records of both inputs are assigned to tumbling or sliding
 * event-time windows; when the watermark passes a window's end, every pair of a left and a right
 * record with equal keys in that window is emitted (result time end - 1, as window results), and
 * the window's state is dropped. `window_start` / `window_end` are selectable.
 * Session windows are `session-join-operator.ts`.
 *
 * Lateness is judged as in the window operator: a record's window is late when end - 1 is at or
 * below max(operator watermark, the record's source watermark); a record all of whose windows are
 * late is dropped and counted. Results are emitted in window-end, then key order; within one key
 * and window, left records in arrival order, each with the right records in arrival order.
 *
 * Keyed state, table `wjoin`: `gggg:<end>:<key>` -> `{ s: start, L: [{ r, t }], R: [{ r, t }] }`.
 * Windows, their timers and firing order: `aligned-window-operator.ts`. Operator state: the input
 * watermark.
 */
import type { RecordBatch, Row } from '../../../../contracts/operator.ts';
import type { KeyBy } from '../../../../sql/index.ts';
import type { CompiledJoinSelect } from '../../../../sql/join-select.ts';
import type { AlignedWindowAssigner } from '../../../../time/windows/assigners.ts';
import { AlignedWindowOperator, type WindowBounds } from './aligned-window-operator.ts';

export const WINDOW_JOIN_TABLE = 'wjoin';

export interface WindowJoinPlan {
  nodeId: string;
  leftKey: KeyBy;
  rightKey: KeyBy;
  assigner: AlignedWindowAssigner;
  select: CompiledJoinSelect;
}

interface Side {
  r: Row;
  t: number;
}
interface WindowEntry {
  s: number;
  L: Side[];
  R: Side[];
}

export class WindowJoinOperator extends AlignedWindowOperator<WindowEntry> {
  constructor(private readonly plan: WindowJoinPlan) {
    super(`join.window '${plan.nodeId}'`, WINDOW_JOIN_TABLE, plan.assigner);
  }

  protected createEntry(start: number): WindowEntry {
    return { s: start, L: [], R: [] };
  }

  async processBatch(batch: RecordBatch, input: number): Promise<void> {
    if (batch.rows.length === 0) return;
    const left = input === 0;
    const key = left ? this.plan.leftKey : this.plan.rightKey;
    const opened = await this.openWindows(batch, (r) => key.keyOf(r));
    if (opened === null) return;
    const { targets, entries } = opened;
    for (const x of targets) {
      const e = entries.get(x.sk)!;
      (left ? e.L : e.R).push({ r: batch.rows[x.i], t: batch.ts[x.i] });
    }
    await this.table.writeMany([...entries]);
  }

  protected fire(e: WindowEntry, bounds: WindowBounds, end: number): void {
    const select = this.plan.select;
    for (const l of e.L) for (const r of e.R) this.buffer.add('+I', select.project(l.r, r.r, bounds), end - 1);
  }
}
