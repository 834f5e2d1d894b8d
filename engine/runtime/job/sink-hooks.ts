/**
 * The job side's calls into every sink's registered hooks (contracts/sink-recovery.ts, registered
 * in connectors/sink-recovery.ts), one function per moment of a run:
 * - `sinkOutputFolders`: the folders the run locks (stage 2 of starting a run, job-runner.ts);
 * - `restoredLineage`: the lineage a restored checkpoint committed under (stage 5);
 * - `prepareSinkOutputs`: committed output made to fit the restore point (stage 6);
 * - `recoverSinks`: before each attempt, pending transactions of the restored checkpoint committed,
 *   every other one aborted (job-master.ts);
 * - `recordSinkCommits`: before notify(n), what n commits recorded durably (job-master.ts).
 * Which state a sink keeps is the connector's business; this file only unwraps the runtime's wrapper.
 */
import type { NormalizedJob } from '../../graph/types.ts';
import type { SubtaskStateSnapshot } from '../../contracts/checkpoint.ts';
import type { SinkOutputChange } from '../../contracts/sink-recovery.ts';
import { sinkRecoveryFor } from '../../connectors/sink-recovery.ts';
import type { WrappedOperatorState } from '../common/state-assignment.ts';

function operatorStatesOf(states: readonly SubtaskStateSnapshot[], nodeId: string): unknown[] {
  return states
    .filter((s) => s.operatorId === nodeId)
    .map((s) => (s.operator as WrappedOperatorState | undefined)?.state);
}

/** Before an attempt starts: commit what the restored checkpoint lists as pending, abort the rest. */
export async function recoverSinks(job: NormalizedJob, states: readonly SubtaskStateSnapshot[]): Promise<void> {
  const baseDir = job.baseDir ?? process.cwd();
  for (const node of job.nodes) {
    await sinkRecoveryFor(node.type)?.recover({
      node,
      baseDir,
      jobName: job.name,
      states: operatorStatesOf(states, node.id),
    });
  }
}

/** Every folder a sink of the job writes: the run locks them (run-lock.ts). */
export function sinkOutputFolders(job: NormalizedJob): string[] {
  const baseDir = job.baseDir ?? process.cwd();
  return job.nodes.flatMap(
    (node) => sinkRecoveryFor(node.type)?.outputFolders?.({ node, baseDir, jobName: job.name }) ?? [],
  );
}

/**
 * Makes every sink's committed output fit the restore point (a fresh run: none, or cleared with
 * `clearOutput`; a restore of k: what was committed up to k). Every sink is checked before any is
 * changed, so a refusal (SinkOutputError) leaves all of them as they were.
 */
export async function prepareSinkOutputs(
  job: NormalizedJob,
  o: {
    restored: { id: number; lineage: string } | null;
    lineage: string;
    firstId: number;
    clearOutput: boolean;
    notice(message: string): void;
  },
): Promise<void> {
  const baseDir = job.baseDir ?? process.cwd();
  const changes: Array<SinkOutputChange | undefined> = [];
  for (const node of job.nodes)
    changes.push(await sinkRecoveryFor(node.type)?.prepareOutput?.({ node, baseDir, jobName: job.name, job, ...o }));
  for (const apply of changes) await apply?.();
}

/** Before notify(n): every sink durably records what checkpoint n commits (contracts/sink-recovery.ts). */
export function recordSinkCommits(
  job: NormalizedJob,
  checkpointId: number,
  states: readonly SubtaskStateSnapshot[],
  lineage: string,
): void {
  const baseDir = job.baseDir ?? process.cwd();
  for (const node of job.nodes) {
    sinkRecoveryFor(node.type)?.recordCommits?.({
      node,
      baseDir,
      jobName: job.name,
      checkpointId,
      lineage,
      states: operatorStatesOf(states, node.id),
    });
  }
}

/** The lineage a restored checkpoint's sinks committed under, or null (fresh start). */
export function restoredLineage(
  job: NormalizedJob,
  states: readonly SubtaskStateSnapshot[] | undefined,
): string | null {
  for (const node of job.nodes) {
    const lineage = sinkRecoveryFor(node.type)?.lineage?.(operatorStatesOf(states ?? [], node.id));
    if (lineage) return lineage;
  }
  return null;
}
