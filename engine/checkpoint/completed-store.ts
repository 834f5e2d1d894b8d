/**
 * The retained completed checkpoints (Flink's CompletedCheckpointStore): the last `retained`
 * checkpoints are kept; adding one more disposes the oldest through the storage (subsumption).
 * Savepoints are tracked but never disposed automatically: they belong to the user.
 */
import type { CheckpointStorage, CompletedCheckpoint } from '../contracts/checkpoint-storage.ts';

export class CompletedCheckpointStore {
  private readonly checkpoints: CompletedCheckpoint[] = []; // oldest first
  private latestSavepoint: CompletedCheckpoint | null = null;

  constructor(
    private readonly retained: number,
    private readonly storage: CheckpointStorage,
  ) {
    if (!Number.isInteger(retained) || retained < 1)
      throw new Error(`checkpointing.retained must be an integer >= 1, got ${retained}`);
  }

  /**
   * Adds a completed checkpoint and returns the ones it subsumed, no longer listed here; the caller
   * disposes them with `dispose` once the tasks have been notified (commits are not held up by
   * file deletion).
   */
  add(cp: CompletedCheckpoint): CompletedCheckpoint[] {
    if (cp.kind === 'savepoint') {
      this.latestSavepoint = cp;
      return [];
    }
    this.insert(cp);
    const subsumed: CompletedCheckpoint[] = [];
    while (this.checkpoints.length > this.retained) subsumed.push(this.checkpoints.shift()!);
    return subsumed;
  }

  async dispose(subsumed: readonly CompletedCheckpoint[]): Promise<void> {
    for (const old of subsumed) await this.storage.discard(old);
  }

  /** Takes over checkpoints found in storage (after `--resume`), without disposing anything yet. */
  adopt(cps: readonly CompletedCheckpoint[]): void {
    for (const cp of cps) {
      if (cp.kind === 'savepoint') {
        if (!this.latestSavepoint || cp.id > this.latestSavepoint.id) this.latestSavepoint = cp;
      } else if (!this.checkpoints.some((c) => c.id === cp.id)) {
        this.insert(cp);
      }
    }
  }

  private insert(cp: CompletedCheckpoint): void {
    this.checkpoints.push(cp);
    this.checkpoints.sort((a, b) => a.id - b.id);
  }

  /** Newest completed checkpoint or savepoint (by id). */
  latest(): CompletedCheckpoint | null {
    const cp = this.checkpoints[this.checkpoints.length - 1] ?? null;
    const sp = this.latestSavepoint;
    if (!cp) return sp;
    if (!sp) return cp;
    return sp.id > cp.id ? sp : cp;
  }

  all(): CompletedCheckpoint[] {
    return [...this.checkpoints];
  }
}
