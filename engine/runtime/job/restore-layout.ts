/**
 * The layout of a job as its checkpoints record it (CheckpointLayout, in each `_metadata`): the
 * job's maxParallelism and, for every node that keeps state, the settings that state's layout
 * depends on. A restore compares the new job's layout with the restored one before anything
 * changes (restore-compatibility.ts). Only settings that change what the state means are listed:
 * a window's output `select` or a filter may change freely, its key or window spec may not.
 */
import type { JobNode, NormalizedJob } from '../../graph/types.ts';
import type { CheckpointLayout } from '../../contracts/checkpoint-storage.ts';
import { aggregate as aggregateNode } from '../../nodes/aggregate/definition.ts';
import { join as joinNode } from '../../nodes/join/definition.ts';
import { intervalJoin } from '../../nodes/join-interval/definition.ts';
import { windowJoin } from '../../nodes/join-window/definition.ts';
import { fileSink } from '../../nodes/sink-file/definition.ts';
import { topn as topnNode } from '../../nodes/topn/definition.ts';
import { window as windowNode } from '../../nodes/window/definition.ts';

/** The settings of a node its state depends on, or null: the node keeps no state worth checking. */
export function stateSchemaOf(node: JobNode): Record<string, unknown> | null {
  switch (node.type) {
    case windowNode.type:
      return { keyBy: node.config.keyBy ?? null, window: node.config.window, aggregates: node.config.aggregates };
    case aggregateNode.type:
      return { keyBy: node.config.keyBy, aggregates: node.config.aggregates };
    case joinNode.type:
      return { kind: node.config.kind, leftKey: node.config.leftKey, rightKey: node.config.rightKey };
    case intervalJoin.type:
      return {
        leftKey: node.config.leftKey,
        rightKey: node.config.rightKey,
        lower: node.config.lower,
        upper: node.config.upper,
      };
    case windowJoin.type:
      return { leftKey: node.config.leftKey, rightKey: node.config.rightKey, window: node.config.window };
    case topnNode.type:
      return {
        partitionBy: node.config.partitionBy,
        orderBy: node.config.orderBy,
        limit: node.config.limit,
        window: node.config.window ?? null,
      };
    case fileSink.type:
      // Its pending transactions live in this folder: a restore into another must not lose them.
      return { path: node.config.path };
    default:
      return null;
  }
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
