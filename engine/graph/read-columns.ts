/**
 * The columns of a source's rows that anything downstream reads, so a source can decode only those
 * (engine/connectors/jsonl-projection.ts) instead of building every field of every record.
 *
 * Rule: a row is followed through the nodes that pass it on unchanged (filter, union) to the
 * nodes that read it and build new rows from named columns (map without `*`, window without a
 * connected `late` port); every column their expressions name is needed, plus the event-time
 * field. Anything else that receives the row as it is (a sink, a window's `late` output, a join,
 * an aggregate, top-N, a map with `*`) needs all columns: the answer is then null. Conservative by
 * design: a node type not listed here always gets whole rows. Browser-safe.
 */
import { referencedColumns } from '../sql/index.ts';
import { outputNames } from './expressions.ts';
import type { NormalizedJob } from './types.ts';
import { filter as filterNode } from '../nodes/filter/definition.ts';
import { map as mapNode } from '../nodes/map/definition.ts';
import { fileSource } from '../nodes/source-file/definition.ts';
import { union as unionNode } from '../nodes/union/definition.ts';
import { window as windowNode } from '../nodes/window/definition.ts';

/** Column names the source `sourceId`'s `out` rows must carry, or null for all of them. */
export function sourceReadColumns(job: NormalizedJob, sourceId: string): string[] | null {
  const node = job.nodes.find((n) => n.id === sourceId);
  if (!node || node.type !== fileSource.type) return null;
  const cols = new Set<string>();
  if (node.config.eventTime) cols.add(node.config.eventTime.field);
  return readsDownstream(job, sourceId, 'out', cols, new Set()) ? [...cols] : null;
}

/** Adds what every receiver of `nodeId`'s `port` reads to `cols`; false when one needs whole rows. */
function readsDownstream(
  job: NormalizedJob,
  nodeId: string,
  port: string,
  cols: Set<string>,
  seen: Set<string>,
): boolean {
  for (const e of job.edges) {
    if (e.from !== nodeId || e.fromPort !== port) continue;
    if (!readsOf(job, e.to, cols, seen)) return false;
  }
  return true;
}

function readsOf(job: NormalizedJob, nodeId: string, cols: Set<string>, seen: Set<string>): boolean {
  if (seen.has(nodeId)) return true; // a union reached twice: its readers are counted already
  seen.add(nodeId);
  const node = job.nodes.find((n) => n.id === nodeId);
  if (!node) return false;
  const add = (names: string[]) => names.forEach((c) => cols.add(c));
  switch (node.type) {
    case filterNode.type:
      add(referencedColumns('where', node.config.where));
      return readsDownstream(job, nodeId, 'out', cols, seen);
    case unionNode.type:
      return readsDownstream(job, nodeId, 'out', cols, seen);
    case mapNode.type:
      if (outputNames(node.config.select).includes('*')) return false;
      add(referencedColumns('select', node.config.select));
      return true;
    case windowNode.type:
      if (job.edges.some((e) => e.from === nodeId && e.fromPort === 'late')) return false;
      if (node.config.keyBy) add(referencedColumns('keyBy', node.config.keyBy));
      add(referencedColumns('aggregates', node.config.aggregates));
      return true;
    default:
      return false;
  }
}
