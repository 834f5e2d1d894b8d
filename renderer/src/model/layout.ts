/**
 * Auto-layout with ELK's layered algorithm (left to right, like data flows). Plain TypeScript:
 * takes a job and node sizes, returns new positions; the caller commits them as one undo step.
 * Runs on demand only (a button or shortcut), never on render or on a metrics tick.
 */
import ELK from 'elkjs/lib/elk.bundled.js';
import type { JobDocument, Position } from '../../../engine/graph/types.ts';

const elk = new ELK();

export const DEFAULT_NODE_SIZE = { width: 208, height: 56 };

export async function layoutJob(
  job: JobDocument,
  sizes: ReadonlyMap<string, { width: number; height: number }> = new Map(),
): Promise<Map<string, Position>> {
  const graph = {
    id: 'root',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': 'RIGHT',
      'elk.layered.spacing.nodeNodeBetweenLayers': '56',
      'elk.spacing.nodeNode': '32',
      'elk.layered.nodePlacement.strategy': 'BRANDES_KOEPF',
      'elk.layered.crossingMinimization.strategy': 'LAYER_SWEEP',
      // Nodes (and unconnected pieces) keep the order they have on screen, top to bottom, instead
      // of ELK's arbitrary order: children are passed sorted by position and ELK is told to keep it.
      'elk.layered.considerModelOrder.strategy': 'NODES_AND_EDGES',
      'elk.layered.considerModelOrder.components': 'MODEL_ORDER',
      'elk.separateConnectedComponents': 'true',
    },
    children: [...job.nodes]
      .sort((a, b) => (a.position?.y ?? 0) - (b.position?.y ?? 0) || (a.position?.x ?? 0) - (b.position?.x ?? 0))
      .map((n) => ({ id: n.id, ...(sizes.get(n.id) ?? DEFAULT_NODE_SIZE) })),
    edges: job.edges
      .filter((e) => job.nodes.some((n) => n.id === e.from) && job.nodes.some((n) => n.id === e.to))
      .map((e, i) => ({ id: `e${i}`, sources: [e.from], targets: [e.to] })),
  };
  const out = await elk.layout(graph);
  const positions = new Map<string, Position>();
  for (const c of out.children ?? [])
    positions.set(c.id, { x: Math.round(c.x ?? 0) + 40, y: Math.round(c.y ?? 0) + 40 });
  return positions;
}
