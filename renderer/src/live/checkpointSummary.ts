/**
 * Checkpoint overview as Flink's web UI shows it (counts and latest entries), derived from the
 * run's checkpoint stats and restores. Plain TS, unit-tested in test/renderer/live/.
 */
import type {
  CheckpointStats,
  CheckpointStatsSummary,
  SubtaskCheckpointStats,
} from '../../../engine/contracts/checkpoint.ts';
import type { RestoreEntry } from '../stores/liveStore.ts';
import { isDiscarded } from '../stores/checkpointStatus.ts';

export function summarizeCheckpoints(
  list: readonly CheckpointStats[],
  restores: readonly RestoreEntry[],
): CheckpointStatsSummary {
  let inProgress = 0;
  let completed = 0;
  let failed = 0;
  let latestCompleted: CheckpointStats | null = null;
  let latestFailed: CheckpointStats | null = null;
  let latestSavepoint: CheckpointStats | null = null;
  for (const c of list) {
    if (c.status === 'in_progress') inProgress++;
    else if (c.status === 'completed') {
      completed++;
      if (c.kind === 'savepoint') latestSavepoint = c;
      latestCompleted = c;
    } else if (!isDiscarded(c)) {
      failed++;
      latestFailed = c;
    }
  }
  const last = restores.length ? restores[restores.length - 1] : null;
  const counted = restores.filter((r) => r.id !== null || !r.source.startsWith('no checkpoint'));
  return {
    counts: { triggered: list.length, inProgress, completed, failed, restored: counted.length },
    latestCompleted,
    latestFailed,
    latestSavepoint,
    latestRestore:
      last && (last.id !== null || !last.source.startsWith('no checkpoint'))
        ? {
            id: last.id ?? -1,
            kind: /savepoint|sp-/.test(last.source) ? 'savepoint' : 'checkpoint',
            location: last.source,
            restoreTime: last.time,
          }
        : null,
  };
}

/** Points for the duration/size chart: completed and failed checkpoints, oldest first. */
export interface ChartPoint {
  id: number;
  time: number;
  duration: number;
  checkpointed: number;
  full: number;
  failed: boolean;
  savepoint: boolean;
}

export function chartPoints(list: readonly CheckpointStats[], max = 120): ChartPoint[] {
  const done = list.filter((c) => c.status !== 'in_progress' && c.duration !== null);
  return done.slice(-max).map((c) => ({
    id: c.id,
    time: c.triggerTime,
    duration: c.duration ?? 0,
    checkpointed: c.checkpointedBytes,
    full: c.fullBytes,
    failed: c.status === 'failed' && !isDiscarded(c),
    savepoint: c.kind === 'savepoint',
  }));
}

export interface OperatorDetail {
  operatorId: string;
  subtasks: SubtaskCheckpointStats[];
  /** Worst subtask per column (Flink shows the max, the slowest subtask is what matters). */
  max: { startDelay: number; alignmentDuration: number; syncDuration: number; asyncDuration: number };
  checkpointedBytes: number;
  fullBytes: number;
}

/** Per-operator grouping of one checkpoint's subtask stats, in the job's node order when given. */
export function operatorDetails(stats: CheckpointStats, order: readonly string[] = []): OperatorDetail[] {
  const by = new Map<string, SubtaskCheckpointStats[]>();
  for (const s of stats.subtasks) {
    const l = by.get(s.operatorId);
    if (l) l.push(s);
    else by.set(s.operatorId, [s]);
  }
  const rank = (id: string) => {
    const i = order.indexOf(id);
    return i < 0 ? order.length : i;
  };
  return [...by.entries()]
    .sort((a, b) => rank(a[0]) - rank(b[0]) || a[0].localeCompare(b[0]))
    .map(([operatorId, subs]) => {
      subs.sort((a, b) => a.subtask - b.subtask);
      const max = { startDelay: 0, alignmentDuration: 0, syncDuration: 0, asyncDuration: 0 };
      let checkpointedBytes = 0;
      let fullBytes = 0;
      for (const s of subs) {
        max.startDelay = Math.max(max.startDelay, s.startDelay);
        max.alignmentDuration = Math.max(max.alignmentDuration, s.alignmentDuration);
        max.syncDuration = Math.max(max.syncDuration, s.syncDuration);
        max.asyncDuration = Math.max(max.asyncDuration, s.asyncDuration);
        checkpointedBytes += s.checkpointedBytes;
        fullBytes += s.fullBytes;
      }
      return { operatorId, subtasks: subs, max, checkpointedBytes, fullBytes };
    });
}

/** The latest completed checkpoint's stats for one operator subtask (state tab: last checkpoint size). */
export function lastSubtaskSnapshot(
  list: readonly CheckpointStats[],
  operatorId: string,
  subtask: number,
): SubtaskCheckpointStats | null {
  for (let i = list.length - 1; i >= 0; i--) {
    const c = list[i];
    if (c.status !== 'completed') continue;
    return c.subtasks.find((s) => s.operatorId === operatorId && s.subtask === subtask) ?? null;
  }
  return null;
}

/**
 * The newest snapshot of one operator subtask that counts against the memory limit: the last
 * completed checkpoint's, unless a later checkpoint was refused for this subtask's size
 * (`limitBytes` set), in which case that refused attempt (its size is what the user must see).
 */
export function limitSnapshot(
  list: readonly CheckpointStats[],
  operatorId: string,
  subtask: number,
): { stats: SubtaskCheckpointStats; refused: boolean } | null {
  for (let i = list.length - 1; i >= 0; i--) {
    const c = list[i];
    if (c.status === 'in_progress') continue;
    const s = c.subtasks.find((x) => x.operatorId === operatorId && x.subtask === subtask);
    if (c.status === 'completed') return s ? { stats: s, refused: false } : null;
    if (s?.limitBytes !== undefined) return { stats: s, refused: true };
  }
  return null;
}
