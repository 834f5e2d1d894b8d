/**
 * Which checkpoint storage a job uses (docs/architecture.md, state backends): `memory` state backend -> the host's memory;
 * `fs` and `rocksdb` -> `<checkpointing.dir>/<jobName>/` on the file system.
 */
import { resolve } from 'node:path';
import type { JobSettings } from '../graph/types.ts';
import { jobRoot } from './fs-layout.ts';
import { FsCheckpointStorage } from './fs-storage.ts';
import { FsCheckpointWorkerStorage } from './fs-worker-storage.ts';
import { MemoryCheckpointStorage } from './memory-storage.ts';
import { MemoryCheckpointWorkerStorage } from './memory-worker-storage.ts';
import type { CheckpointLayout, CheckpointStorage, CheckpointWorkerStorage } from '../contracts/checkpoint-storage.ts';

export interface StorageTarget {
  jobName: string;
  settings: Pick<JobSettings, 'stateBackend' | 'checkpointing' | 'memoryStateLimit'>;
  /** Folder that a relative `checkpointing.dir` resolves against (the job file's folder). */
  baseDir?: string;
}

export function storageRootOf(t: StorageTarget): string {
  return jobRoot(resolve(t.baseDir ?? process.cwd(), t.settings.checkpointing.dir), t.jobName);
}

/** `layout`: the running job's shape, written into each checkpoint's metadata (fs and rocksdb). */
export function createCheckpointStorage(t: StorageTarget, layout?: CheckpointLayout): CheckpointStorage {
  if (t.settings.stateBackend === 'memory') {
    return new MemoryCheckpointStorage(t.jobName, t.settings.memoryStateLimit, {
      savepointRoot: storageRootOf(t),
      layout,
    });
  }
  return new FsCheckpointStorage(storageRootOf(t), t.jobName, layout);
}

export function createWorkerStorage(t: StorageTarget): CheckpointWorkerStorage {
  if (t.settings.stateBackend === 'memory') return new MemoryCheckpointWorkerStorage();
  return new FsCheckpointWorkerStorage(storageRootOf(t));
}
