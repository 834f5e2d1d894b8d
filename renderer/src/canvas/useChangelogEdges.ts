/**
 * The changelog edges of the document on screen (model/changelog.ts), for the canvas's styling.
 * Recomputed only when the graph's shape or a node's config changes, never on a move (positions
 * are not compared).
 */
import { useMemo } from 'react';
import { useDoc } from '../state.ts';
import { changelogEdgeKeys } from '../model/changelog.ts';
import { join as joinNode } from '../../../engine/nodes/join/definition.ts';

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
