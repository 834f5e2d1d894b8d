/**
 * The job master's side of sink recovery: hand every sink node its restored operator states
 * through the hook its connector registered (contracts/sink-recovery.ts). Which state a sink keeps
 * is the connector's business; this file only unwraps the runtime's wrapper.
 */
import type { NormalizedJob } from '../../graph/types.ts';
import type { SubtaskStateSnapshot } from '../../contracts/checkpoint.ts';
import { sinkRecoveryFor } from '../../connectors/sink-recovery.ts';
import type { WrappedOperatorState } from '../common/state-assignment.ts';

function operatorStatesOf(states: readonly SubtaskStateSnapshot[], nodeId: string): unknown[] {
  return states.filter((s) => s.operatorId === nodeId).map((s) => (s.operator as WrappedOperatorState | undefined)?.state);
}

/** Before an attempt starts: commit what the restored checkpoint lists as pending, abort the rest. */
export function recoverSinks(job: NormalizedJob, states: readonly SubtaskStateSnapshot[]): void {
  const baseDir = job.baseDir ?? process.cwd();
  for (const node of job.nodes) {
    sinkRecoveryFor(node.type)?.recover({ node, baseDir, states: operatorStatesOf(states, node.id) });
  }
}

/** The lineage a restored checkpoint's sinks committed under, or null (fresh start). */
export function restoredLineage(job: NormalizedJob, states: readonly SubtaskStateSnapshot[] | undefined): string | null {
  for (const node of job.nodes) {
    const lineage = sinkRecoveryFor(node.type)?.lineage?.(operatorStatesOf(states ?? [], node.id));
    if (lineage) return lineage;
  }
  return null;
}
