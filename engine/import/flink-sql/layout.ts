/**
 * A simple layered layout for imported jobs: a node's column is the length of the longest path
 * from a source to it, rows fill each column top to bottom in node order. The designer can
 * re-layout; this only makes an imported job readable on first open.
 */
import type { JobEdge, JobNode } from '../../graph/types.ts';

export const COLUMN_WIDTH = 260;
export const ROW_HEIGHT = 140;

export function layOut(nodes: JobNode[], edges: JobEdge[]): void {
  const layer = new Map<string, number>();
  const visit = (id: string, seen: Set<string>): number => {
    const known = layer.get(id);
    if (known !== undefined) return known;
    if (seen.has(id)) return 0;
    seen.add(id);
    const inputs = edges.filter((e) => e.to === id).map((e) => visit(e.from, seen) + 1);
    const l = inputs.length ? Math.max(...inputs) : 0;
    layer.set(id, l);
    return l;
  };
  const rows = new Map<number, number>();
  for (const n of nodes) {
    const l = visit(n.id, new Set());
    const row = rows.get(l) ?? 0;
    rows.set(l, row + 1);
    n.position = { x: l * COLUMN_WIDTH, y: row * ROW_HEIGHT };
  }
}
