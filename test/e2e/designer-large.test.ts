/**
 * A 200-node, 250-edge job in the designer (Chromium against `weir serve`). Above 100 nodes the
 * canvas mounts only the nodes and edges in view (Canvas's RENDER_VISIBLE_ONLY_ABOVE), which keeps a
 * drag step within a frame: this proves what a user sees stays whole. Edges to nodes out of view are
 * drawn, a node dragged moves and its move undoes in one step, and zooming out mounts the nodes that
 * come into view until the whole job shows.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { artifactPath, chromiumOrSkip } from './support/serve.ts';
import { launchApp, openWorkspaceFile, type OpenedApp } from './support/app.ts';
import { largeJob } from '../support/fixtures/large-job.ts';
import { nodeCount, waitFor, mod, viewportSettled } from './designer-helpers.ts';

const skip = chromiumOrSkip();
const job = largeJob();
let app: OpenedApp | undefined;
let page: Page;

before(async () => {
  if (skip) return;
  app = await launchApp({ files: { 'large.weir.json': job } });
  page = app.page;
  await openWorkspaceFile(page, 'large.weir.json', job.name);
  await page.getByText(`${job.nodes.length} nodes · ${job.edges.length} edges`).waitFor();
  await viewportSettled(page);
});
after(async () => {
  await app?.close();
});

/** Ids of the nodes and edges in the page now. */
const mounted = () =>
  page.evaluate(() => ({
    nodes: [...document.querySelectorAll<HTMLElement>('.react-flow__node')].map((n) => n.dataset.id!),
    edges: [...document.querySelectorAll('.react-flow__edge')].map((e) =>
      e.getAttribute('data-testid')!.replace(/^rf__edge-/, ''),
    ),
  }));

/** The node's position on screen, from React Flow's transform on its wrapper. */
const nodeTransform = (id: string) =>
  page.locator(`.react-flow__node[data-id="${id}"]`).evaluate((el) => (el as HTMLElement).style.transform);

test('the opened job mounts the nodes in view and draws the edges that leave the view', { skip }, async () => {
  const { nodes, edges } = await mounted();
  assert.ok(nodes.length > 0 && nodes.length < job.nodes.length, `${nodes.length} of ${job.nodes.length} nodes`);
  const inPage = new Set(nodes);
  // An edge whose sender is in view and whose receiver is not: the line still leaves the node.
  const leaving = job.edges
    .filter((e) => inPage.has(e.from) !== inPage.has(e.to))
    .map((e) => `${e.from}.${e.fromPort ?? 'out'}->${e.to}${e.toPort ? `:${e.toPort}` : ''}`);
  assert.ok(leaving.length > 0, 'the view cuts some edges');
  const drawn = leaving.filter((id) => edges.includes(id));
  assert.deepEqual(drawn, leaving, 'every edge with one end in view is drawn');
  const d = await page.locator(`[data-testid="rf__edge-${leaving[0]}"] .react-flow__edge-path`).getAttribute('d');
  assert.match(d ?? '', /^M/);
  await page.screenshot({ path: artifactPath('designer-large-opened.png') });
});

test('a node of the large job drags on the grid and the move undoes in one step', { skip }, async () => {
  const id = 'map-1';
  const before = await nodeTransform(id);
  const box = (await page.locator(`.react-flow__node[data-id="${id}"]`).boundingBox())!;
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + 40, y + 60, { steps: 8 });
  await page.mouse.up();
  await waitFor(async () => (await nodeTransform(id)) !== before, 'the node moved');
  const moved = job.nodes.find((n) => n.id === id)!.position!;
  // Snap is on: the dropped position is on the 16 px grid.
  const at = (await nodeTransform(id)).match(/translate\(([-\d.]+)px, ([-\d.]+)px\)/)!;
  assert.equal(Number(at[1]) % 16, 0, `x ${at[1]} on the grid (was ${moved.x})`);
  assert.equal(Number(at[2]) % 16, 0, `y ${at[2]} on the grid (was ${moved.y})`);
  await page.keyboard.press(`${mod}+z`);
  await waitFor(async () => (await nodeTransform(id)) === before, 'the move undone');
});

test('zooming out mounts the nodes coming into view, down to the whole job', { skip }, async () => {
  let shown = await nodeCount(page);
  const zoomOut = page.locator('.react-flow__controls-zoomout');
  while (await zoomOut.isEnabled()) {
    await zoomOut.click();
    await viewportSettled(page);
    const now = await nodeCount(page);
    assert.ok(now >= shown, `zooming out never unmounts nodes (${shown} -> ${now})`);
    shown = now;
  }
  // At the smallest zoom the job fits the pane: drag the empty pane so the job's corner is at its corner.
  const pane = (await page.locator('.react-flow__pane').boundingBox())!;
  const [tx, ty] = await page.evaluate(() =>
    (document.querySelector('.react-flow__viewport') as HTMLElement).style.transform.match(/-?[\d.]+/g)!.map(Number),
  );
  await page.mouse.move(pane.x + 10, pane.y + 10);
  await page.mouse.down();
  await page.mouse.move(pane.x + 10 + (20 - tx), pane.y + 10 + (20 - ty), { steps: 6 });
  await page.mouse.up();
  await viewportSettled(page);
  await page.screenshot({ path: artifactPath('designer-large-zoomed-out.png') });
  await waitFor(async () => (await nodeCount(page)) === job.nodes.length, 'every node in view');
  assert.equal(await page.locator('.react-flow__edge').count(), job.edges.length);
  assert.deepEqual(app!.pageErrors, []);
});
