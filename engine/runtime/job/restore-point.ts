/**
 * Stage 5 of starting a run (job-runner.ts): the checkpoint the run restores, the first checkpoint
 * id it uses and the lineage its sinks commit under.
 * - `--from PATH`: that checkpoint or savepoint folder, verified (else refused by the storage).
 * - `--resume`: the newest usable retained checkpoint; a damaged newer one is reported by name and
 *   skipped; every one damaged is refused; none yet starts over with a notice.
 * - neither: a fresh run.
 * Ids continue after the restored and after the newest stored checkpoint (rule 1 of the checkpoint
 * protocol), so restoring an older checkpoint never reuses a folder. Nothing here changes a file.
 */
import { randomBytes } from 'node:crypto';
import type { NormalizedJob } from '../../graph/types.ts';
import {
  CheckpointRestoreError,
  type CheckpointStorage,
  type CompletedCheckpoint,
} from '../../contracts/checkpoint-storage.ts';
import type { StartJobOptions } from './api.ts';
import { JobStartError } from './errors.ts';
import { restoredLineage } from './sink-hooks.ts';

export interface RestorePoint {
  /** The checkpoint restored, or null: the run starts from the beginning. */
  restored: CompletedCheckpoint | null;
  /** Ids continue after the restored and after the newest stored checkpoint (rule 1 of the protocol). */
  firstId: number;
  /** Stable across restores: committed file names derive from it. */
  lineage: string;
}

/** Refusals that need nothing from disk, made before the run takes its locks. */
export function refuseImpossibleRestore(opts: Pick<StartJobOptions, 'job' | 'resume'>): void {
  const job = opts.job;
  if (opts.resume && job.settings.stateBackend === 'memory') {
    throw new JobStartError(
      `cannot --resume job '${job.name}': the memory state backend keeps checkpoints only in the memory ` +
        `of the process that ran the job, so they are gone after it exited. Nothing was changed. Use stateBackend 'fs' or ` +
        `'rocksdb' to resume after a crash, or run the job from the start without --resume.`,
    );
  }
}

/** `notice` hears what the run reports first: damaged checkpoints skipped, nothing to resume yet. */
export async function chooseRestorePoint(
  job: NormalizedJob,
  storage: CheckpointStorage,
  opts: Pick<StartJobOptions, 'resume' | 'from'>,
  notice: (message: string) => void,
): Promise<RestorePoint> {
  let restored: CompletedCheckpoint | null = null;
  let highestId = 0;
  if (opts.from) restored = await storage.load(opts.from);
  else if (opts.resume) {
    ({ restored, highestId } = await latestUsable(storage, notice));
    // Killed before its first checkpoint completed: a sink commits only when a checkpoint completes
    // (a bounded job ends with a final one, and completed checkpoints are retained), so nothing of
    // that run was committed and starting over is exactly-once; its temp files are aborted at launch.
    if (restored === null) {
      if (job.settings.checkpointing.interval === null) {
        throw new JobStartError(
          `cannot --resume job '${job.name}': checkpointing is off, so there is no checkpoint to ` +
            `resume from. Nothing was changed. Set settings.checkpointing.interval, or run without --resume.`,
        );
      }
      notice(
        `nothing to resume yet: job '${job.name}' has no completed checkpoint, so none of its output was ` +
          `committed; starting from the beginning`,
      );
    }
  }
  const newest = await storage.latest().catch(() => null);
  const firstId = Math.max(restored?.id ?? 0, newest?.id ?? 0, highestId) + 1;
  const lineage = restoredLineage(job, restored?.states) ?? randomBytes(4).toString('hex');
  return { restored, firstId, lineage };
}

/** `--resume`: newest usable checkpoint, reporting every damaged one skipped on the way. */
async function latestUsable(
  storage: CheckpointStorage,
  report: (message: string) => void,
): Promise<{ restored: CompletedCheckpoint | null; highestId: number }> {
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
