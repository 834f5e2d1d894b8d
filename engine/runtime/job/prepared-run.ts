/**
 * What the stages of starting a run (job-runner.ts) hand the job master: everything settled
 * before its first task process starts. A new stage that the master must know about adds its
 * result here.
 */
import type { NormalizedJob } from '../../graph/types.ts';
import type { CheckpointStorage, CompletedCheckpoint } from '../../contracts/checkpoint-storage.ts';
import type { PhysicalPlan } from '../common/plan.ts';

export interface PreparedRun {
  job: NormalizedJob;
  plan: PhysicalPlan;
  storage: CheckpointStorage;
  /** The checkpoint the first attempt restores, or null: from the beginning. */
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
