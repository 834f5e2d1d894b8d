/**
 * A large, valid job for the designer's responsiveness measurement: 200 nodes and 250 edges in 20
 * groups (two sources, two filters, a union, a map, a window and two sinks each), laid on a grid.
 */
import type { JobDocument, JobEdge, JobNode } from '../engine/graph/types.ts';

export function largeJob(groups = 20): JobDocument {
  const nodes: JobNode[] = [];
  const edges: JobEdge[] = [];
  for (let g = 0; g < groups; g++) {
    const y0 = (g % 5) * 520;
    const x0 = Math.floor(g / 5) * 1400;
    const id = (s: string) => `${s}-${g}`;
    const at = (col: number, row: number) => ({ x: x0 + col * 260, y: y0 + row * 110 });
    const et = { field: 'ts', maxOutOfOrderness: '1s' };
    nodes.push(
      { id: id('gen-a'), type: 'source.generator', name: id('gen-a'), position: at(0, 0), config: { count: 1000, keys: 5, eventTime: et } },
      { id: id('gen-b'), type: 'source.generator', name: id('gen-b'), position: at(0, 2), config: { count: 1000, keys: 5, seed: g, eventTime: et } },
      { id: id('filter-a'), type: 'filter', name: id('filter-a'), position: at(1, 0), config: { where: 'seq > 10' } },
      { id: id('filter-b'), type: 'filter', name: id('filter-b'), position: at(1, 2), config: { where: "key <> 'k1'" } },
      { id: id('union'), type: 'union', name: id('union'), position: at(2, 1), config: {} },
      { id: id('map'), type: 'map', name: id('map'), position: at(3, 1), config: { select: 'key, seq, ts' } },
      { id: id('window'), type: 'window', name: id('window'), position: at(4, 1), config: { keyBy: 'key', window: { kind: 'tumbling', size: '10s' }, aggregates: 'COUNT(*) AS n' } },
      { id: id('sink-a'), type: 'sink.file', name: id('sink-a'), position: at(5, 0), config: { path: `out/a-${g}`, format: 'jsonl' } },
      { id: id('sink-b'), type: 'sink.preview', name: id('sink-b'), position: at(5, 3), config: { limit: 50 } },
      { id: id('preview'), type: 'sink.preview', name: id('preview'), position: at(2, 3), config: {} },
    );
    edges.push(
      { from: id('gen-a'), to: id('filter-a') },
      { from: id('gen-b'), to: id('filter-b') },
      { from: id('filter-a'), to: id('union') },
      { from: id('filter-b'), to: id('union') },
      { from: id('gen-a'), to: id('union') },
      { from: id('union'), to: id('map') },
      { from: id('map'), to: id('window') },
      { from: id('window'), to: id('sink-a') },
      { from: id('window'), to: id('sink-b'), fromPort: 'late' },
      { from: id('filter-a'), to: id('preview') },
      { from: id('filter-b'), to: id('preview') },
      { from: id('map'), to: id('sink-b') },
    );
    if (g % 2 === 0) edges.push({ from: id('union'), to: id('preview') });
  }
  return { format: 'weir.job/v1', name: 'large-designer-bench', settings: {}, nodes, edges };
}
