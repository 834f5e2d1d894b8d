/**
 * The columns of a source's rows that anything downstream reads, so a source can decode only those
 * (engine/connectors/jsonl-projection.ts) instead of building every field of every record.
 *
 * Rule: a row is followed through the nodes that pass it on unchanged (filter, union) to the
 * nodes that read it and build new rows from named columns (map without `*`, window without a
 * connected `late` port): each definition's `readColumns` says which. Every column their
 * expressions name is needed, plus what the source needs itself (its `projection`: the event-time
 * field). Anything else that receives the row as it is (a sink, a window's `late` output, a join,
 * an aggregate, top-N, a map with `*`) needs all columns: the answer is then null. Conservative by
 * design: a node type without `readColumns` always gets whole rows. Browser-safe.
 */
import { outputNames } from './expressions.ts';
import type { NormalizedJob } from './types.ts';
import { definitionOf } from './node-types.ts';

/** Column names the source `sourceId`'s `out` rows must carry, or null for all of them. */
export function sourceReadColumns(job: NormalizedJob, sourceId: string): string[] | null {
  const node = job.nodes.find((n) => n.id === sourceId);
  const own = node && definitionOf(node).projection?.(node.config);
  if (!own) return null;
  const cols = new Set<string>(own);
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
  // Whatever leaves by another port (a window's `late`) is the row as it came.
  if (job.edges.some((e) => e.from === nodeId && e.fromPort !== 'out')) return false;
  const reads = definitionOf(node).readColumns?.(node.config, { outputNames });
  if (!reads) return false;
  reads.columns.forEach((c) => cols.add(c));
  return reads.passes ? readsDownstream(job, nodeId, 'out', cols, seen) : true;
}
