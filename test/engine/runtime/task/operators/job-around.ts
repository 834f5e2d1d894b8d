/**
 * Shared by the window and relational operator tests (kept here, above both folders, so that
 * neither imports the other's fixtures for it).
 */
import { DEFAULT_SETTINGS, type JobNode, type NormalizedJob } from '../../../../../engine/graph/types.ts';

/**
 * A job around one node, as the runtime hands it to the operator factory: a source feeds it
 * directly, or (`changelogInput`) through an upstream `aggregate`, so that the graph gives the node
 * a changelog input (graph/changelog.ts) and its operator compiles retracting accumulators.
 */
export function jobAround(node: JobNode, opts: { changelogInput?: boolean } = {}): NormalizedJob {
  const upstream: Array<JobNode & { parallelism: number }> = opts.changelogInput
    ? [{ id: 'up', type: 'aggregate', parallelism: 1, config: { keyBy: 'id', aggregates: 'COUNT(*) AS n' } }]
    : [];
  const feed = opts.changelogInput ? 'up' : 'src';
  return {
    format: 'weir.job/v1',
    name: 'operator-test',
    settings: DEFAULT_SETTINGS,
    nodes: [
      { id: 'src', type: 'source.generator', parallelism: 1, config: {} },
      ...upstream,
      { ...node, parallelism: 1 },
      { id: 'sink', type: 'sink.preview', parallelism: 1, config: {} },
    ],
    edges: [
      ...(opts.changelogInput ? [{ from: 'src', to: 'up', fromPort: 'out' as const }] : []),
      { from: feed, to: node.id, fromPort: 'out' },
      { from: node.id, to: 'sink', fromPort: 'out' },
    ],
  };
}
