/**
 * One checkpoint between trigger and completion: which subtasks are expected, which have
 * acknowledged, and the state they sent. A subtask counts as acknowledged when it appears in an
 * ack's `stats` or `states`; each subtask counts once, whatever path its acknowledgement took.
 */
import type {
  CheckpointAck,
  CheckpointBarrier,
  SubtaskCheckpointStats,
  SubtaskStateSnapshot,
} from '../contracts/checkpoint.ts';
import type { PendingCheckpointData } from '../contracts/checkpoint-storage.ts';

export interface SubtaskId {
  operatorId: string;
  subtask: number;
}

function subtaskKey(s: SubtaskId): string {
  return `${s.operatorId}#${s.subtask}`;
}

export type AckOutcome =
  { kind: 'accepted'; newlyAcked: SubtaskCheckpointStats[]; complete: boolean } | { kind: 'ignored'; reason: string };

export class PendingCheckpoint {
  /** Identity mode: the subtasks still missing. Count mode: null. */
  private readonly notYetAcked: Set<string> | null;
  private readonly ackedKeys = new Set<string>();
  private readonly states: SubtaskStateSnapshot[] = [];
  readonly total: number;

  /**
   * `expected` lists the subtasks that must acknowledge, or gives only their number (then any
   * distinct subtasks count, up to that number).
   */
  constructor(
    readonly barrier: CheckpointBarrier,
    readonly triggerTime: number,
    expected: readonly SubtaskId[] | number,
  ) {
    if (typeof expected === 'number') {
      this.notYetAcked = null;
      this.total = expected;
    } else {
      this.notYetAcked = new Set(expected.map(subtaskKey));
      this.total = this.notYetAcked.size;
    }
  }

  get id(): number {
    return this.barrier.id;
  }
  get kind(): CheckpointBarrier['kind'] {
    return this.barrier.kind;
  }
  get acknowledged(): number {
    return this.ackedKeys.size;
  }
  get isComplete(): boolean {
    return this.ackedKeys.size >= this.total;
  }

  missing(): string[] {
    if (this.notYetAcked) return [...this.notYetAcked];
    return [`${this.total - this.ackedKeys.size} more subtask(s)`];
  }

  private expects(key: string): boolean {
    if (this.ackedKeys.has(key)) return false; // duplicate
    return this.notYetAcked ? this.notYetAcked.has(key) : this.ackedKeys.size < this.total;
  }

  /** A subtask is acknowledged by its entry in `stats` or in `states`. */
  acknowledge(ack: CheckpointAck): AckOutcome {
    if (ack.checkpointId !== this.id)
      return { kind: 'ignored', reason: `ack for ${ack.checkpointId}, pending is ${this.id}` };
    const fresh = new Set<string>();
    const newlyAcked: SubtaskCheckpointStats[] = [];
    const accept = (key: string): boolean => {
      if (fresh.has(key)) return true;
      if (!this.expects(key)) return false;
      fresh.add(key);
      this.ackedKeys.add(key);
      this.notYetAcked?.delete(key);
      return true;
    };
    for (const s of ack.stats) if (accept(subtaskKey(s))) newlyAcked.push(s);
    for (const st of ack.states) if (accept(subtaskKey(st))) this.states.push(st);
    if (fresh.size === 0) return { kind: 'ignored', reason: 'no new subtask in this ack' };
    return { kind: 'accepted', newlyAcked, complete: this.isComplete };
  }

  data(): PendingCheckpointData {
    return {
      id: this.id,
      kind: this.kind,
      triggerTime: this.triggerTime,
      barrierTimestamp: this.barrier.timestamp,
      states: [...this.states],
    };
  }
}
