/**
 * One checkpoint between trigger and completion: which subtasks are expected, which have
 * acknowledged, and the state they sent. A subtask counts as acknowledged when its entry appears in
 * an ack's `stats` (every acknowledging subtask reports stats, even a stateless one).
 */
import type { CheckpointAck, CheckpointBarrier, SubtaskCheckpointStats, SubtaskStateSnapshot } from './types.ts';
import type { PendingCheckpointData } from './storage.ts';

export interface SubtaskId { operatorId: string; subtask: number }

export function subtaskKey(s: SubtaskId): string {
  return `${s.operatorId}#${s.subtask}`;
}

export type AckOutcome =
  | { kind: 'accepted'; newlyAcked: SubtaskCheckpointStats[]; complete: boolean }
  | { kind: 'ignored'; reason: string };

export class PendingCheckpoint {
  private readonly notYetAcked: Set<string>;
  private readonly states: SubtaskStateSnapshot[] = [];
  private acked = 0;

  constructor(readonly barrier: CheckpointBarrier, readonly triggerTime: number, expected: readonly SubtaskId[]) {
    this.notYetAcked = new Set(expected.map(subtaskKey));
    this.total = this.notYetAcked.size;
  }

  readonly total: number;
  get id(): number { return this.barrier.id; }
  get kind(): CheckpointBarrier['kind'] { return this.barrier.kind; }
  get acknowledged(): number { return this.acked; }
  get isComplete(): boolean { return this.notYetAcked.size === 0; }

  missing(): string[] {
    return [...this.notYetAcked];
  }

  acknowledge(ack: CheckpointAck): AckOutcome {
    if (ack.checkpointId !== this.id) return { kind: 'ignored', reason: `ack for ${ack.checkpointId}, pending is ${this.id}` };
    const newlyAcked: SubtaskCheckpointStats[] = [];
    const fresh = new Set<string>();
    for (const s of ack.stats) {
      const key = subtaskKey(s);
      if (!this.notYetAcked.has(key)) continue; // unknown or duplicate subtask
      this.notYetAcked.delete(key);
      fresh.add(key);
      newlyAcked.push(s);
    }
    if (newlyAcked.length === 0) return { kind: 'ignored', reason: 'no new subtask in this ack' };
    this.acked += newlyAcked.length;
    for (const st of ack.states) if (fresh.has(subtaskKey(st))) this.states.push(st);
    return { kind: 'accepted', newlyAcked, complete: this.isComplete };
  }

  data(): PendingCheckpointData {
    return {
      id: this.id, kind: this.kind, triggerTime: this.triggerTime, barrierTimestamp: this.barrier.timestamp,
      states: [...this.states],
    };
  }
}
