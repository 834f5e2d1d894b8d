/**
 * Everything a run settles before its first task process starts, kept out of the job master so
 * the rules live in one place:
 * 0. every path it reads or writes is a real file or folder (run-paths.ts), else refused;
 * 1. the run locks (run-lock.ts) on the checkpoint root and every file-sink folder, taken first;
 * 2. the checkpoint to restore: `--from` a folder (verified, or refused), `--resume` the newest
 *    usable one (a damaged newer one is reported by name and skipped), or none;
 * 3. the sink folders made consistent with it (each sink's prepareOutput hook, recover-sinks.ts): a fresh run is refused on committed
 *    output (unless `clearOutput`), a restore rolls back exactly what was committed after it.
 * Whatever throws here leaves files as they were (checks come before changes) and the locks released.
 */
import type { NormalizedJob } from '../../graph/types.ts';
import {
  CheckpointRestoreError,
  type CheckpointStorage,
  type CompletedCheckpoint,
} from '../../contracts/checkpoint-storage.ts';
import { storageRootOf } from '../../checkpoint/storage-factory.ts';
import { RunLocks } from './run-lock.ts';
import { checkRunPaths } from './run-paths.ts';
import { prepareSinkOutputs, sinkOutputFolders } from './recover-sinks.ts';

export interface RestorePoint {
  restored: CompletedCheckpoint | null;
  /** Newest checkpoint id known (usable or not): new ids continue above it. */
  highestId: number;
}

/** Run locks for `job`: its checkpoint root (fs, rocksdb, and memory savepoints) and its sink folders. */
export function lockRun(job: NormalizedJob, notice: (message: string) => void): RunLocks {
  checkRunPaths(job);
  const folders = sinkOutputFolders(job);
  if (job.settings.stateBackend !== 'memory')
    folders.push(storageRootOf({ jobName: job.name, settings: job.settings, baseDir: job.baseDir }));
  return RunLocks.acquire(folders, job.name, notice);
}

/** `--resume`: newest usable checkpoint, reporting every damaged one skipped on the way. */
export async function latestRestorePoint(
  storage: CheckpointStorage,
  report: (message: string) => void,
): Promise<RestorePoint> {
  const fs = storage as CheckpointStorage & {
    latestUsable?: (r: (m: string) => void) => Promise<{ checkpoint: CompletedCheckpoint | null; highestId: number }>;
  };
  if (fs.latestUsable) {
    const unusable: string[] = [];
    const { checkpoint, highestId } = await fs.latestUsable((m) => {
      report(m);
      if (/ is unusable: /.test(m)) unusable.push(m);
    });
    if (!checkpoint && unusable.length > 0) {
      // Starting over would not be a resume, and its fresh-run refusal would not say why.
      throw new CheckpointRestoreError(
        `cannot resume: every retained checkpoint is damaged (${unusable.join('; ')}). Nothing was ` +
          `changed. Run from the start with --clear-output (Clear output in the app), or restore a savepoint with --from.`,
      );
    }
    return { restored: checkpoint, highestId };
  }
  const restored = await storage.latest();
  return { restored, highestId: restored?.id ?? 0 };
}

export async function prepareSinks(
  job: NormalizedJob,
  restored: CompletedCheckpoint | null,
  lineage: string,
  clearOutput: boolean,
  notice: (message: string) => void,
): Promise<void> {
  await prepareSinkOutputs(job, {
    restored: restored ? { id: restored.id, lineage } : null,
    lineage,
    clearOutput,
    notice,
  });
}
