/**
 * Task side of the memory storage: there are no files; heap snapshots travel inline in the
 * acknowledgement (`KeyedStateSnapshot.inline`). Writing a file here is a programming error.
 */
import type { CheckpointBarrier } from '../contracts/checkpoint.ts';
import type {
  CheckpointKind,
  CheckpointWorkerStorage,
  StateFileRef,
  StateFileSink,
} from '../contracts/checkpoint-storage.ts';

export class MemoryCheckpointWorkerStorage implements CheckpointWorkerStorage {
  readonly kind = 'memory' as const;
  private readonly kinds = new Map<number, CheckpointKind>();

  beginCheckpoint(barrier: CheckpointBarrier): void {
    this.kinds.set(barrier.id, barrier.kind);
    if (this.kinds.size > 16) this.kinds.delete(Math.min(...this.kinds.keys()));
  }

  kindOf(checkpointId: number): CheckpointKind {
    return this.kinds.get(checkpointId) ?? 'checkpoint';
  }

  createStateFile(): Promise<StateFileSink> {
    return Promise.reject(noFiles());
  }
  writeStateFile(): Promise<StateFileRef> {
    return Promise.reject(noFiles());
  }
  readStateFile(): AsyncIterable<Buffer> {
    throw noFiles();
  }
  resolve(path: string): string {
    return path;
  }
}

function noFiles(): Error {
  return new Error(
    'the memory checkpoint storage keeps snapshots inline in the host; state backends must not write files to it',
  );
}
