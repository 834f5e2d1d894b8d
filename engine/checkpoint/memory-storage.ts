/**
 * Host-memory checkpoint storage (the `memory` state backend; Flink's JobManagerCheckpointStorage).
 * Snapshots travel inline in the acknowledgements and are kept in this process's memory: a task
 * process crash is recovered from here, but when the host process itself dies they are gone.
 *
 * Savepoints are the exception, as in Flink (a savepoint always needs a target directory): when a
 * `savepointRoot` is given they are written to `<root>/savepoints/sp-<id>-<time>/_metadata` with
 * their inline state, so the path printed on Ctrl-C can be restored with `--from`.
 */
import { join } from 'node:path';
import { writeFileAtomic } from './atomic-file.ts';
import { claimCheckpointRoot } from './storage-ownership.ts';
import { jsonBytes, METADATA_FORMAT, serializeMetadata, type CheckpointMetadata } from './checkpoint-metadata.ts';
import { METADATA_FILE, checkpointFolder } from './fs-layout.ts';
import { FsCheckpointStorage, loadCheckpoint } from './fs-storage.ts';
import {
  CheckpointDeclinedError,
  CheckpointRestoreError,
  type CheckpointLayout,
  type CheckpointStorage,
  type CompletedCheckpoint,
  type PendingCheckpointData,
} from '../contracts/checkpoint-storage.ts';
import type { RetainedCheckpoint, SubtaskStateSnapshot } from '../contracts/checkpoint.ts';

export const DEFAULT_MEMORY_STATE_LIMIT = 5 * 1024 * 1024;

function mb(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(2)} MB`;
}

function memoryLocation(jobName: string, id: number): string {
  return `memory://${encodeURIComponent(jobName)}/${id}`;
}

export class MemoryCheckpointStorage implements CheckpointStorage {
  readonly kind = 'memory' as const;
  private readonly completed = new Map<number, CompletedCheckpoint>();

  constructor(
    readonly jobName: string,
    readonly memoryStateLimit = DEFAULT_MEMORY_STATE_LIMIT,
    /** `layout`: the job's shape, written into savepoint metadata (restore-compatibility.ts). */
    private readonly opts: { savepointRoot?: string; layout?: CheckpointLayout } = {},
  ) {}

  private lostMessage(): string {
    return (
      `no checkpoint of job '${this.jobName}' is available: the memory state backend keeps checkpoints only ` +
      `in the memory of the host process that ran the job, so they are lost when that process exits. ` +
      `Use stateBackend 'fs' or 'rocksdb' to resume after a restart` +
      (this.opts.savepointRoot
        ? `, or restore a savepoint from ${join(this.opts.savepointRoot, 'savepoints')} with --from PATH.`
        : '.')
    );
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
          `settings.memoryStateLimit). Use stateBackend 'fs' or 'rocksdb' for state this large, or raise memoryStateLimit.`,
      );
    }
  }

  async store(data: PendingCheckpointData): Promise<CompletedCheckpoint> {
    const bytes = data.states.reduce((sum, s) => sum + MemoryCheckpointStorage.snapshotBytes(s), 0);
    const time = Date.now();
    let location = memoryLocation(this.jobName, data.id);
    if (data.kind === 'savepoint' && this.opts.savepointRoot) {
      const folder = checkpointFolder(data.id, 'savepoint', data.barrierTimestamp);
      const meta: CheckpointMetadata = {
        format: METADATA_FORMAT,
        job: this.jobName,
        id: data.id,
        kind: 'savepoint',
        triggerTime: data.triggerTime,
        time,
        folder,
        bytes,
        states: data.states,
        ...(this.opts.layout ? { layout: this.opts.layout } : {}),
      };
      location = join(this.opts.savepointRoot, folder);
      // Same root as the fs backend's checkpoints: mark it as this job's first (storage-ownership.ts).
      await claimCheckpointRoot(this.opts.savepointRoot, this.jobName);
      await writeFileAtomic(join(location, METADATA_FILE), serializeMetadata(meta));
    }
    const cp: CompletedCheckpoint = {
      id: data.id,
      kind: data.kind,
      triggerTime: data.triggerTime,
      time,
      location,
      bytes,
      states: data.states,
    };
    this.completed.set(cp.id, cp);
    return cp;
  }

  async discard(checkpoint: CompletedCheckpoint): Promise<void> {
    if (checkpoint.kind !== 'savepoint') this.completed.delete(checkpoint.id);
  }

  async discardFailed(): Promise<void> {}

  /** Checkpoints held in this process plus savepoints on disk; none at all is an error saying why. */
  async listRetained(): Promise<RetainedCheckpoint[]> {
    const out = new Map<string, RetainedCheckpoint>();
    if (this.opts.savepointRoot) {
      const onDisk = await new FsCheckpointStorage(this.opts.savepointRoot, this.jobName).listRetained();
      for (const r of onDisk) if (r.kind === 'savepoint') out.set(r.path, r);
    }
    for (const c of this.completed.values())
      out.set(c.location, { id: c.id, kind: c.kind, path: c.location, time: c.time, bytes: c.bytes });
    if (out.size === 0) throw new CheckpointRestoreError(this.lostMessage());
    return [...out.values()].sort((a, b) => b.id - a.id || a.path.localeCompare(b.path));
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
    // A savepoint (or any checkpoint folder) on disk: its state is inline in `_metadata` or in files.
    return loadCheckpoint(path);
  }
}
