/**
 * Host-memory checkpoint storage (the `memory` state backend; Flink's JobManagerCheckpointStorage).
 * Snapshots travel inline in the acknowledgements and are kept in this process's memory: a task
 * process crash is recovered from here, but when the host process itself dies they are gone.
 */
import { jsonBytes } from './checkpoint-metadata.ts';
import {
  CheckpointDeclinedError, CheckpointRestoreError, type CheckpointStorage, type CompletedCheckpoint,
  type PendingCheckpointData,
} from './storage.ts';
import type { RetainedCheckpoint, SubtaskStateSnapshot } from './types.ts';

export const DEFAULT_MEMORY_STATE_LIMIT = 5 * 1024 * 1024;

function mb(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(2)} MB`;
}

export function memoryLocation(jobName: string, id: number): string {
  return `memory://${encodeURIComponent(jobName)}/${id}`;
}

export class MemoryCheckpointStorage implements CheckpointStorage {
  readonly kind = 'memory' as const;
  private readonly completed = new Map<number, CompletedCheckpoint>();

  constructor(readonly jobName: string, readonly memoryStateLimit = DEFAULT_MEMORY_STATE_LIMIT) {}

  private lostMessage(): string {
    return `no checkpoint of job '${this.jobName}' is available: the memory state backend keeps checkpoints only ` +
      `in the memory of the host process that ran the job, so they are lost when that process exits. ` +
      `Use stateBackend 'fs' or 'rocksdb' to resume after a restart.`;
  }

  async open(): Promise<void> {}

  /** Size of one operator subtask's snapshot as it would travel to and sit in the host. */
  static snapshotBytes(state: SubtaskStateSnapshot): number {
    return jsonBytes({ keyed: state.keyed?.inline, operator: state.operator });
  }

  checkSubtaskState(state: SubtaskStateSnapshot): void {
    const bytes = MemoryCheckpointStorage.snapshotBytes(state);
    if (bytes > this.memoryStateLimit) {
      throw new CheckpointDeclinedError(
        `the state of operator '${state.operatorId}' subtask ${state.subtask} is ${bytes} bytes (${mb(bytes)}), ` +
        `over the memory state backend's limit of ${this.memoryStateLimit} bytes (${mb(this.memoryStateLimit)}, ` +
        `settings.memoryStateLimit). Use stateBackend 'fs' or 'rocksdb' for state this large, or raise memoryStateLimit.`);
    }
  }

  async store(data: PendingCheckpointData): Promise<CompletedCheckpoint> {
    const bytes = data.states.reduce((sum, s) => sum + MemoryCheckpointStorage.snapshotBytes(s), 0);
    const cp: CompletedCheckpoint = {
      id: data.id, kind: data.kind, triggerTime: data.triggerTime, time: Date.now(),
      location: memoryLocation(this.jobName, data.id), bytes, states: data.states,
    };
    this.completed.set(cp.id, cp);
    return cp;
  }

  async discard(checkpoint: CompletedCheckpoint): Promise<void> {
    if (checkpoint.kind !== 'savepoint') this.completed.delete(checkpoint.id);
  }

  async discardFailed(): Promise<void> {}

  async listRetained(): Promise<RetainedCheckpoint[]> {
    if (this.completed.size === 0) throw new CheckpointRestoreError(this.lostMessage());
    return [...this.completed.values()]
      .sort((a, b) => b.id - a.id)
      .map((c) => ({ id: c.id, kind: c.kind, path: c.location, time: c.time, bytes: c.bytes }));
  }

  async listCompleted(): Promise<CompletedCheckpoint[]> {
    return [...this.completed.values()].sort((a, b) => b.id - a.id);
  }

  async latest(): Promise<CompletedCheckpoint | null> {
    let best: CompletedCheckpoint | null = null;
    for (const c of this.completed.values()) if (!best || c.id > best.id) best = c;
    return best;
  }

  async resumeLatest(): Promise<CompletedCheckpoint> {
    const cp = await this.latest();
    if (!cp) throw new CheckpointRestoreError(this.lostMessage());
    return cp;
  }

  async load(path: string): Promise<CompletedCheckpoint> {
    for (const c of this.completed.values()) if (c.location === path) return c;
    if (path.startsWith('memory://')) throw new CheckpointRestoreError(`${path}: ${this.lostMessage()}`);
    throw new CheckpointRestoreError(
      `cannot restore '${path}' with the memory state backend: it keeps checkpoints only in the host's memory ` +
      `(memory://...). To restore a checkpoint folder, run the job with stateBackend 'fs' or 'rocksdb'.`);
  }
}
