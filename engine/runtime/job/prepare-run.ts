/**
 * Everything a run needs before its first task process: the plan, the opened checkpoint storage,
 * the checkpoint to restore (`--from`, `--resume`) and the first checkpoint id. Refusals happen
 * here, before anything (including output) is touched.
 */
import { randomBytes } from 'node:crypto';
import type { NormalizedJob } from '../../graph/types.ts';
import type { CheckpointStorage, CompletedCheckpoint } from '../../contracts/checkpoint-storage.ts';
import { createCheckpointStorage } from '../../checkpoint/storage-factory.ts';
import { planJob, type PhysicalPlan } from '../common/plan.ts';
import type { StartJobOptions } from './api.ts';
import { JobStartError } from './errors.ts';
import { restoredLineage } from './recover-sinks.ts';
import { latestRestorePoint, prepareSinks } from './run-preparation.ts';

export interface PreparedRun {
  job: NormalizedJob;
  plan: PhysicalPlan;
  storage: CheckpointStorage;
  restored: CompletedCheckpoint | null;
  /** Ids continue after the restored and after the newest stored checkpoint (rule 1 of the protocol). */
  firstId: number;
  /** Stable across restores: committed file names derive from it. */
  lineage: string;
  /**
   * Warnings the run reports first: damaged checkpoints skipped by `--resume`, `--resume` with
   * nothing to resume yet, output rolled back or cleared.
   */
  notices: string[];
}

/** Refusals that need nothing from disk, made before the run takes its locks. */
export function refuseImpossibleRun(opts: Pick<StartJobOptions, 'job' | 'resume'>): void {
  const job = opts.job;
  if (opts.resume && job.settings.stateBackend === 'memory') {
    throw new JobStartError(
      `cannot --resume job '${job.name}': the memory state backend keeps checkpoints only in the memory ` +
        `of the process that ran the job, so they are gone after it exited. Nothing was changed. Use stateBackend 'fs' or ` +
        `'rocksdb' to resume after a crash, or run the job from the start without --resume.`,
    );
  }
}

/** Called with the run's locks held (run-preparation.ts): it may change sink folders. */
export async function prepareRun(
  opts: Pick<StartJobOptions, 'job' | 'resume' | 'from' | 'clearOutput'>,
): Promise<PreparedRun> {
  const job = opts.job;
  const settings = job.settings;
  refuseImpossibleRun(opts);
  const plan = planJob(job);
  const storage = createCheckpointStorage({ jobName: job.name, settings, baseDir: job.baseDir });
  await storage.open();
  let restored: CompletedCheckpoint | null = null;
  const notices: string[] = [];
  let highestId = 0;
  if (opts.from) restored = await storage.load(opts.from);
  else if (opts.resume) {
    ({ restored, highestId } = await latestRestorePoint(storage, (m) => notices.push(m)));
    // Killed before its first checkpoint completed: a sink commits only when a checkpoint completes
    // (a bounded job ends with a final one, and completed checkpoints are retained), so nothing of
    // that run was committed and starting over is exactly-once; its temp files are aborted at launch.
    if (restored === null) {
      if (settings.checkpointing.interval === null) {
        throw new JobStartError(
          `cannot --resume job '${job.name}': checkpointing is off, so there is no checkpoint to ` +
            `resume from. Nothing was changed. Set settings.checkpointing.interval, or run without --resume.`,
        );
      }
      notices.push(
        `nothing to resume yet: job '${job.name}' has no completed checkpoint, so none of its output was ` +
          `committed; starting from the beginning`,
      );
    }
  }
  const newest = await storage.latest().catch(() => null);
  const firstId = Math.max(restored?.id ?? 0, newest?.id ?? 0, highestId) + 1;
  const lineage = restoredLineage(job, restored?.states) ?? randomBytes(4).toString('hex');
  await prepareSinks(job, restored, lineage, !!opts.clearOutput, (m) => notices.push(m));
  return { job, plan, storage, restored, firstId, lineage, notices };
}
