/**
 * The layout of a job as its checkpoints record it (CheckpointLayout, in each `_metadata`): the
 * job's maxParallelism and, for every node that keeps state, the settings that state's layout
 * depends on. A restore compares the new job's layout with the restored one before anything
 * changes (restore-compatibility.ts). Only settings that change what the state means are listed:
 * a window's output `select` or a filter may change freely, its key or window spec may not.
 */
import type { JobNode, NormalizedJob } from '../../graph/types.ts';
import type { CheckpointLayout } from '../../contracts/checkpoint-storage.ts';
import { definitionOf } from '../../graph/node-types.ts';

/** The settings of a node its state depends on (its definition's `stateLayout`), or null: none worth checking. */
export function stateSchemaOf(node: JobNode): Record<string, unknown> | null {
  return definitionOf(node).stateLayout?.(node.config) ?? null;
}

export function layoutOf(job: NormalizedJob): CheckpointLayout {
  const nodes: CheckpointLayout['nodes'] = {};
  for (const node of job.nodes) {
    const schema = stateSchemaOf(node);
    if (schema) nodes[node.id] = { type: node.type, schema };
  }
  return { maxParallelism: job.settings.maxParallelism, nodes };
}

/** `field: old → new` for every field that differs; empty when the layouts agree. */
export function schemaChanges(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const field of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const a = JSON.stringify(before[field] ?? null);
    const b = JSON.stringify(after[field] ?? null);
    if (a !== b) out.push(`${field}: ${a} → ${b}`);
  }
  return out;
}
