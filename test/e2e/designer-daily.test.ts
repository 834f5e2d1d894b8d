/**
 * Designer fixes for daily work (issue 17), Chromium against `weir serve --example`: the first
 * node lands where it is dropped; auto-layout keeps unconnected nodes in their on-screen order;
 * ports connect from the keyboard (Enter selects a focused node, C picks the input); a minimap
 * click moves the view; the Restore popover closes on Escape and on a canvas click; a reload
 * reopens the document that was open, not the start-up example.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import {
  artifactPath,
  chromiumOrSkip,
  ensureRenderer,
  launchChromium,
  startServe,
  type ServeProcess,
} from './support/serve.ts';
import { dragFromPalette, edgeCount, nodeCount, waitFor } from './designer-helpers.ts';
import { openFile, writeLiveJob } from './live-support.ts';

const skip = chromiumOrSkip();

async function box(page: Page, testId: string) {
  const b = await page.getByTestId(testId).boundingBox();
  if (!b) throw new Error(`${testId} not visible`);
  return b;
}

describe('designer for daily work', { skip }, () => {
  let serve: ServeProcess;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  before(async () => {
    ensureRenderer();
    serve = await startServe(['--example', 'orders-per-user']);
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    page.on('dialog', (d) => {
      void d.accept();
    });
    await page.goto(serve.url);
    await page.getByTestId('app-ready').waitFor({ timeout: 30_000 });
    await page.getByTestId('job-name').filter({ hasText: 'orders-per-user' }).waitFor({ timeout: 20_000 });
  });
  after(async () => {
    await browser?.close();
    await serve?.close();
  });

  it('drops the first node on an empty canvas where it is dropped', async () => {
    await page.getByTestId('doc-new').click();
    await waitFor(async () => (await nodeCount(page)) === 0, 'an empty canvas');
    const canvas = await box(page, 'canvas');
    const at = { x: 140, y: 420 };
    await dragFromPalette(page, 'union', at);
    await waitFor(async () => (await nodeCount(page)) === 1, 'one node');
    const n = await box(page, 'node-union-1');
    const dx = n.x - (canvas.x + at.x);
    const dy = n.y - (canvas.y + at.y);
    assert.ok(
      Math.abs(dx) < 40 && Math.abs(dy) < 40,
      `node at ${n.x},${n.y}, dropped at ${canvas.x + at.x},${canvas.y + at.y}`,
    );
  });

  it('auto-layout keeps unconnected nodes in their on-screen order', async () => {
    // Added bottom to top, so the document order is the reverse of the screen order.
    await dragFromPalette(page, 'map', { x: 480, y: 330 });
    await dragFromPalette(page, 'filter', { x: 480, y: 60 });
    await waitFor(async () => (await nodeCount(page)) === 3, 'three nodes');
    const before = await Promise.all(
      ['node-filter-1', 'node-map-1', 'node-union-1'].map(async (id) => (await box(page, id)).y),
    );
    assert.ok(before[0] < before[1] && before[1] < before[2], `screen order before: ${before}`);
    await page.getByTestId('auto-layout').click();
    await page.waitForFunction(
      () => {
        const ys = ['node-filter-1', 'node-map-1', 'node-union-1'].map((id) =>
          document.querySelector(`[data-testid="${id}"]`)!.getBoundingClientRect(),
        );
        return Math.abs(ys[0].x - ys[1].x) < 2 && Math.abs(ys[1].x - ys[2].x) < 2;
      },
      null,
      { timeout: 10_000 },
    );
    const after = await Promise.all(
      ['node-filter-1', 'node-map-1', 'node-union-1'].map(async (id) => (await box(page, id)).y),
    );
    assert.ok(after[0] < after[1] && after[1] < after[2], `order after layout: ${after}`);
  });

  it('connects ports from the keyboard', async () => {
    await page.locator('.react-flow__node[data-id="filter-1"]').focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('node-form').and(page.locator('[data-node-id="filter-1"]')).waitFor();
    await page.locator('.react-flow__node[data-id="filter-1"]').focus();
    await page.keyboard.press('c');
    await page.getByTestId('connect-picker').waitFor();
    await page.keyboard.type('map');
    await page.screenshot({ path: artifactPath('connect-picker-1280.png') });
    await page.keyboard.press('Enter');
    await waitFor(async () => (await edgeCount(page)) === 1, 'an edge filter-1 -> map-1');
    assert.equal(await page.getByTestId('connect-picker').count(), 0);
    assert.equal(await page.locator('.react-flow__edge[data-id="filter-1.out->map-1"]').count(), 1);
  });

  it('moves the view where the minimap is clicked', async () => {
    const transform = () => page.locator('.react-flow__viewport').evaluate((el) => (el as HTMLElement).style.transform);
    const start = await transform();
    const mm = await box(page, 'rf__minimap');
    await page.mouse.click(mm.x + 12, mm.y + 12);
    await page.waitForFunction(
      (t) => (document.querySelector('.react-flow__viewport') as HTMLElement).style.transform !== t,
      start,
    );
  });

  it('closes the Restore popover on Escape and on a canvas click', async () => {
    await page.getByTestId('live-toggle').click();
    await page.getByTestId('ctl-restore').click();
    await page.getByTestId('restore-list').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('restore-list').waitFor({ state: 'detached' });
    await page.getByTestId('ctl-restore').click();
    await page.getByTestId('restore-list').waitFor();
    await page.locator('.react-flow__pane').click({ position: { x: 20, y: 20 } });
    await page.getByTestId('restore-list').waitFor({ state: 'detached' });
  });

  it('reopens the open document after a reload, not the start-up example', async () => {
    const file = writeLiveJob(serve.workspace);
    await openFile(page, file);
    await page.reload();
    await page.getByTestId('app-ready').waitFor({ timeout: 30_000 });
    await page.getByTestId('job-name').filter({ hasText: 'live-demo' }).waitFor({ timeout: 20_000 });
    assert.equal(await page.getByTestId('doc-path').textContent(), file);
    assert.deepEqual(pageErrors, []);
  });
});
