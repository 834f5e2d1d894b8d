/**
 * Checkpoint statistics (Flink's CheckpointStatsTracker): one CheckpointStats per checkpoint with
 * per-subtask sync/async/alignment durations and start delay, plus counts and the latest
 * completed/failed/savepoint/restore. Every change is pushed to the listener with a copy.
 */
import type {
  CheckpointStats,
  CheckpointStatsSummary,
  SubtaskCheckpointStats,
  CheckpointCounts,
} from '../contracts/checkpoint.ts';

export type CheckpointStatsListener = (stats: CheckpointStats, summary: CheckpointStatsSummary) => void;

function copy(s: CheckpointStats): CheckpointStats {
  return { ...s, subtasks: s.subtasks.map((t) => ({ ...t })) };
}

export class CheckpointStatsTracker {
  private readonly history: CheckpointStats[] = [];
  private readonly byId = new Map<number, CheckpointStats>();
  private readonly counts: CheckpointCounts = { triggered: 0, inProgress: 0, completed: 0, failed: 0, restored: 0 };
  private latestCompleted: CheckpointStats | null = null;
  private latestFailed: CheckpointStats | null = null;
  private latestSavepoint: CheckpointStats | null = null;
  private latestRestore: CheckpointStatsSummary['latestRestore'] = null;

  constructor(
    private readonly listener?: CheckpointStatsListener,
    private readonly historySize = 100,
  ) {}

  private emit(s: CheckpointStats): void {
    this.listener?.(copy(s), this.summary());
  }

  reportTriggered(id: number, kind: CheckpointStats['kind'], triggerTime: number, total: number): void {
    const s: CheckpointStats = {
      id,
      kind,
      status: 'in_progress',
      triggerTime,
      duration: null,
      acknowledged: 0,
      total,
      checkpointedBytes: 0,
      fullBytes: 0,
      subtasks: [],
    };
    this.byId.set(id, s);
    this.history.push(s);
    if (this.history.length > this.historySize) this.byId.delete(this.history.shift()!.id);
    this.counts.triggered++;
    this.counts.inProgress++;
    this.emit(s);
  }

  reportAcknowledged(id: number, subtasks: readonly SubtaskCheckpointStats[], acknowledged: number): void {
    const s = this.byId.get(id);
    if (!s || s.status !== 'in_progress') return;
    for (const t of subtasks) {
      s.subtasks.push({ ...t });
      s.checkpointedBytes += t.checkpointedBytes;
      s.fullBytes += t.fullBytes;
    }
    s.acknowledged = acknowledged;
    this.emit(s);
  }

  /** Sizes of snapshots a task refused to hand over (they fail the checkpoint right after). */
  reportDeclined(id: number, subtasks: readonly SubtaskCheckpointStats[]): void {
    const s = this.byId.get(id);
    if (!s || s.status !== 'in_progress') return;
    for (const t of subtasks) {
      s.subtasks.push({ ...t });
      s.checkpointedBytes += t.checkpointedBytes;
      s.fullBytes += t.fullBytes;
    }
  }

  reportCompleted(id: number, endTime: number, location: string): void {
    const s = this.byId.get(id);
    if (!s || s.status !== 'in_progress') return;
    s.status = 'completed';
    s.duration = endTime - s.triggerTime;
    s.location = location;
    this.counts.inProgress--;
    this.counts.completed++;
    this.latestCompleted = s;
    if (s.kind === 'savepoint') this.latestSavepoint = s;
    this.emit(s);
  }

  reportFailed(id: number, endTime: number, reason: string): void {
    const s = this.byId.get(id);
    if (!s || s.status !== 'in_progress') return;
    s.status = 'failed';
    s.duration = endTime - s.triggerTime;
    s.failureReason = reason;
    this.counts.inProgress--;
    this.counts.failed++;
    this.latestFailed = s;
    this.emit(s);
  }

  reportRestored(id: number, kind: CheckpointStats['kind'], location: string, restoreTime: number): void {
    this.counts.restored++;
    this.latestRestore = { id, kind, location, restoreTime };
  }

  get(id: number): CheckpointStats | undefined {
    const s = this.byId.get(id);
    return s && copy(s);
  }

  /** Oldest first. */
  all(): CheckpointStats[] {
    return this.history.map(copy);
  }

  summary(): CheckpointStatsSummary {
    const c = (s: CheckpointStats | null): CheckpointStats | null => (s ? copy(s) : null);
    return {
      counts: { ...this.counts },
      latestCompleted: c(this.latestCompleted),
      latestFailed: c(this.latestFailed),
      latestSavepoint: c(this.latestSavepoint),
      latestRestore: this.latestRestore && { ...this.latestRestore },
    };
  }
}
