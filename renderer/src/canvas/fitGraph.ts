/**
 * Fit (toolbar, F, the canvas controls, a newly opened document): the graph into the part of the
 * canvas nothing covers, at a zoom where its text can still be read.
 *
 * - The minimap and the zoom controls float over the canvas corners; React Flow's own fitView
 *   ignores them, so nodes ended up under the minimap. Here each is an obstacle: the graph goes in
 *   the largest-zoom area beside or above them (`fitViewport`, plain and unit-tested).
 * - Fitting an 8-node chain into the canvas left beside the inspector and above the live panel at
 *   1280 x 800 drew ~5 px text. The zoom stops at MIN_FIT_ZOOM (node names 8.5 px, the live badges
 *   scale themselves up below 0.8): a graph that does not fit there is shown from its start (the
 *   sources, left) and the rest is a scroll away.
 */
import type { ReactFlowInstance } from '@xyflow/react';

export const MIN_FIT_ZOOM = 0.65;
const MAX_FIT_ZOOM = 1.1;
/** Space kept between the graph and the edges of its area, in screen pixels. */
const PADDING = 24;
/** Space kept around an obstacle. */
const GAP = 8;

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Viewport {
  x: number;
  y: number;
  zoom: number;
}

const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** The areas of `view` clear of every obstacle: per obstacle, the part left, right, above or below it. */
export function clearAreas(view: Box, obstacles: readonly Box[]): Box[] {
  let areas = [view];
  for (const o of obstacles) {
    areas = areas.flatMap((a) => {
      if (!overlaps(a, o)) return [a];
      const right = a.x + a.width;
      const bottom = a.y + a.height;
      return [
        { x: a.x, y: a.y, width: o.x - a.x, height: a.height },
        { x: o.x + o.width, y: a.y, width: right - (o.x + o.width), height: a.height },
        { x: a.x, y: a.y, width: a.width, height: o.y - a.y },
        { x: a.x, y: o.y + o.height, width: a.width, height: bottom - (o.y + o.height) },
      ].filter((c) => c.width > 2 * PADDING && c.height > 2 * PADDING);
    });
  }
  return areas;
}

const zoomFor = (graph: Box, area: Box) =>
  Math.min(
    (area.width - 2 * PADDING) / Math.max(1, graph.width),
    (area.height - 2 * PADDING) / Math.max(1, graph.height),
  );

/**
 * The viewport showing `graph` (flow coordinates) in the clear area of `view` (screen pixels,
 * relative to the canvas) where it is largest, at most MAX_FIT_ZOOM and at least MIN_FIT_ZOOM;
 * centred when it fits, else from its left edge (and top, when it is too tall too).
 */
export function fitViewport(graph: Box, view: Box, obstacles: readonly Box[]): Viewport {
  const areas = clearAreas(view, obstacles);
  const candidates = areas.length ? areas : [view];
  let area = candidates[0];
  for (const a of candidates.slice(1)) if (zoomFor(graph, a) > zoomFor(graph, area)) area = a;
  const zoom = Math.max(MIN_FIT_ZOOM, Math.min(MAX_FIT_ZOOM, zoomFor(graph, area)));
  const w = graph.width * zoom;
  const h = graph.height * zoom;
  const left = w <= area.width - 2 * PADDING ? area.x + (area.width - w) / 2 : area.x + PADDING;
  const top = h <= area.height - 2 * PADDING ? area.y + (area.height - h) / 2 : area.y + PADDING;
  return { x: left - graph.x * zoom, y: top - graph.y * zoom, zoom };
}

function relativeBox(el: Element, to: DOMRect): Box {
  const r = el.getBoundingClientRect();
  return { x: r.left - to.left - GAP, y: r.top - to.top - GAP, width: r.width + 2 * GAP, height: r.height + 2 * GAP };
}

/**
 * Fits the canvas' nodes once React Flow has measured them all (a just-opened document's are
 * measured a frame or two after they mount); resolves without moving when there is none.
 */
export function fitGraph(rf: ReactFlowInstance, duration: number, frames = 30): void {
  const nodes = rf.getNodes();
  const pane = document.querySelector('.canvas .react-flow');
  if (!nodes.length || !pane) return;
  if (nodes.some((n) => !rf.getInternalNode(n.id)?.measured?.width)) {
    if (frames > 0) requestAnimationFrame(() => fitGraph(rf, duration, frames - 1));
    return;
  }
  const rect = pane.getBoundingClientRect();
  const obstacles = [...pane.querySelectorAll('.react-flow__minimap, .react-flow__controls')].map((el) =>
    relativeBox(el, rect),
  );
  const view = { x: 0, y: 0, width: rect.width, height: rect.height };
  void rf.setViewport(fitViewport(rf.getNodesBounds(nodes), view, obstacles), { duration });
}
