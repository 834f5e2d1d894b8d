/** Fit: the graph into the canvas area clear of the minimap and the controls, never below a readable zoom. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MIN_FIT_ZOOM, clearAreas, fitViewport, type Box } from '../../../renderer/src/canvas/fitGraph.ts';

// The canvas at 1280 x 800 with the palette, the inspector and the live panel open.
const VIEW: Box = { x: 0, y: 0, width: 792, height: 408 };
const MINIMAP: Box = { x: 601, y: 275, width: 184, height: 126 };
const CONTROLS: Box = { x: 7, y: 307, width: 44, height: 94 };

/** The graph's box on screen under a viewport. */
const onScreen = (g: Box, v: { x: number; y: number; zoom: number }): Box => ({
  x: g.x * v.zoom + v.x,
  y: g.y * v.zoom + v.y,
  width: g.width * v.zoom,
  height: g.height * v.zoom,
});
const inside = (a: Box, b: Box) =>
  a.x >= b.x && a.y >= b.y && a.x + a.width <= b.x + b.width && a.y + a.height <= b.y + b.height;
const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe('fit', () => {
  it('a graph that fits goes where it is largest, clear of the minimap and the controls', () => {
    const graph = { x: 0, y: 0, width: 1048, height: 290 };
    const v = fitViewport(graph, VIEW, [MINIMAP, CONTROLS]);
    const box = onScreen(graph, v);
    assert.ok(v.zoom >= MIN_FIT_ZOOM, String(v.zoom));
    assert.ok(inside(box, VIEW), JSON.stringify(box));
    assert.ok(!overlaps(box, MINIMAP) && !overlaps(box, CONTROLS), JSON.stringify(box));
  });

  it('a small graph is not blown up past 1.1 and is centred', () => {
    const graph = { x: 100, y: 50, width: 208, height: 80 };
    const v = fitViewport(graph, VIEW, []);
    assert.equal(v.zoom, 1.1);
    const box = onScreen(graph, v);
    assert.ok(Math.abs(box.x + box.width / 2 - VIEW.width / 2) < 1, JSON.stringify(box));
  });

  it('a graph too wide to read when fitted stops at the readable zoom, shown from its left end', () => {
    const graph = { x: -40, y: 0, width: 2168, height: 180 };
    const v = fitViewport(graph, VIEW, [MINIMAP, CONTROLS]);
    assert.equal(v.zoom, MIN_FIT_ZOOM);
    const box = onScreen(graph, v);
    assert.equal(box.x, 24, 'the sources start at the left, the rest is a scroll away');
    assert.ok(box.y >= 0 && box.y + box.height <= MINIMAP.y, `clear of the minimap: ${JSON.stringify(box)}`);
  });

  it('clear areas are the view around each obstacle', () => {
    const areas = clearAreas(VIEW, [MINIMAP]);
    assert.ok(
      areas.some((a) => a.height === MINIMAP.y && a.width === VIEW.width),
      JSON.stringify(areas),
    );
    assert.ok(
      areas.some((a) => a.width === MINIMAP.x && a.height === VIEW.height),
      JSON.stringify(areas),
    );
    assert.ok(areas.every((a) => !overlaps(a, MINIMAP)));
  });
});
