/**
 * Keys of the edges that carry a changelog (+I/-U/+U/-D: after an aggregate, a topn or an outer
 * join), computed by the engine's own rules (engine/graph/changelog.ts), so the canvas and the
 * edge popover show exactly the edges the validator treats as changelogs.
 */
import { checkGraph } from '../../../engine/graph/check-graph.ts';
import { changelogEdges } from '../../../engine/graph/changelog.ts';
import type { JobDocument } from '../../../engine/graph/types.ts';
import { edgeKey } from './ops.ts';

export function changelogEdgeKeys(job: Pick<JobDocument, 'nodes' | 'edges'>): Set<string> {
  try {
    const idx = checkGraph({ format: 'weir.job/v1', name: '', ...job }, []);
    return new Set([...changelogEdges(idx)].map((i) => edgeKey(job.edges[i])));
  } catch {
    return new Set(); // a half-edited document: no changelog styling rather than a crash
  }
}
