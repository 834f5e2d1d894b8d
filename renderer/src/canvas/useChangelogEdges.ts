/**
 * Keys of the edges that carry a changelog (+I/-U/+U/-D: after an aggregate, a topn or an outer
 * join), computed by the engine's own rules (engine/graph/changelog.ts), so the canvas draws
 * exactly the edges the validator treats as changelogs. Recomputed only when the graph's shape
 * or a node's config changes, never on a move (positions are not compared).
 */
import { useMemo } from 'react';
import { checkGraph } from '../../../engine/graph/check-graph.ts';
import { changelogEdges } from '../../../engine/graph/changelog.ts';
import type { JobDocument } from '../../../engine/graph/types.ts';
import { useDoc } from '../state.ts';
import { edgeKey } from '../model/ops.ts';
import { join as joinNode } from '../../../engine/nodes/join/definition.ts';

export function changelogEdgeKeys(job: Pick<JobDocument, 'nodes' | 'edges'>): Set<string> {
  try {
    const idx = checkGraph({ format: 'weir.job/v1', name: '', ...job }, []);
    return new Set([...changelogEdges(idx)].map((i) => edgeKey(job.edges[i])));
  } catch {
    return new Set(); // a half-edited document: no changelog styling rather than a crash
  }
}

export function useChangelogEdges(): Set<string> {
  const nodes = useDoc((s) => s.job.nodes);
  const edges = useDoc((s) => s.job.edges);
  // Only types and configs matter; a drag changes positions, which this signature ignores.
  const signature = useMemo(
    () => JSON.stringify(nodes.map((n) => [n?.id, n?.type, n?.type === joinNode.type ? n.config?.kind : 0])),
    [nodes],
  );
  return useMemo(() => changelogEdgeKeys({ nodes, edges }), [signature, edges]);
}
