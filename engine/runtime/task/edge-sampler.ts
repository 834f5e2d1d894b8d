/**
 * Edge samples: clicking an edge in the live panel shows a sample of the records flowing there.
 * The host switches a tap on for one output port of one node; every subtask of that node then
 * keeps the newest records it emitted on that port and the task process ships what is new as a
 * `preview` message named `edge:<node>.<port>#<subtask>`.
 *
 * Cost rules: a port without a tap costs one null check per batch (no allocation, no clock read);
 * a tapped port reads the clock once per batch and copies at most SAMPLE_SIZE row references at
 * most once per SAMPLE_EVERY_MS, never per record.
 */
import type { OutputPort, RecordBatch, Row } from '../../contracts/operator.ts';

export const SAMPLE_SIZE = 20;
export const SAMPLE_EVERY_MS = 200;

/** The preview target of a node's output port (subtasks append `#<subtask>`). */
export function edgeTarget(nodeId: string, port: OutputPort): string {
  return `edge:${nodeId}.${port}`;
}

export class EdgeTap {
  private fresh: Row[] = [];
  private lastAt = 0;

  offer(batch: RecordBatch): void {
    const now = Date.now();
    if (now - this.lastAt < SAMPLE_EVERY_MS) return;
    this.lastAt = now;
    const rows = batch.rows;
    for (let i = Math.max(0, rows.length - SAMPLE_SIZE); i < rows.length; i++) this.fresh.push(rows[i]);
    // Only the newest SAMPLE_SIZE survive until the next flush.
    if (this.fresh.length > SAMPLE_SIZE) this.fresh.splice(0, this.fresh.length - SAMPLE_SIZE);
  }

  /** Records sampled since the last call (null: nothing new). */
  take(): Row[] | null {
    if (this.fresh.length === 0) return null;
    const out = this.fresh;
    this.fresh = [];
    return out;
  }
}
