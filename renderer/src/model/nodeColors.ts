/**
 * One colour per node, shared by the canvas (the node's stripe and icon, its minimap dot) and the
 * live panel (its chip in the metrics table, its line in every chart), so a line in a chart is found
 * on the canvas by its colour.
 *
 * A node takes its group's hue (sources green, transforms blue, windows violet, sinks amber; the
 * first shade of each is the group colour of styles.css), and the n-th node of a group (document
 * order) the n-th shade, so two transforms are told apart in a chart. Plain TS.
 */
import type { JobNode } from '../../../engine/graph/types.ts';
import { typeInfo, type PaletteGroup } from './catalog.ts';

/** Shades per group: bright on the dark panels (3:1 or more, as WCAG asks of non-text marks), each distinct. */
const SHADES: Record<PaletteGroup, readonly string[]> = {
  Sources: ['#3fb68b', '#8fdcb8', '#a3be8c', '#2fa07a'],
  Transforms: ['#5b8def', '#5ec8d8', '#9cc2ff', '#8f8cf5'],
  Windows: ['#c58af9', '#d67bb0', '#e3c2ff', '#a67be0'],
  Sinks: ['#f0a04b', '#f2d17a', '#e07b5a', '#ffc48a'],
};

/** Notes and frames on the minimap. */
export const NOTE_COLOR = '#b59a3a';

// One map per node array: the canvas asks once per node and render, a drag makes a new array.
const cache = new WeakMap<readonly JobNode[], ReadonlyMap<string, string>>();

export function nodeColors(nodes: readonly JobNode[]): ReadonlyMap<string, string> {
  const hit = cache.get(nodes);
  if (hit) return hit;
  const seen = new Map<PaletteGroup, number>();
  const out = new Map<string, string>();
  for (const n of nodes) {
    if (!n || typeof n.id !== 'string' || out.has(n.id)) continue;
    const group = typeInfo(n.type).group;
    const i = seen.get(group) ?? 0;
    seen.set(group, i + 1);
    const shades = SHADES[group];
    out.set(n.id, shades[i % shades.length]);
  }
  cache.set(nodes, out);
  return out;
}

/** The colour of one node; a node not in the list takes its group's first shade. */
export function nodeColor(nodes: readonly JobNode[], node: Pick<JobNode, 'id' | 'type'>): string {
  return nodeColors(nodes).get(node.id) ?? SHADES[typeInfo(node.type).group][0];
}
