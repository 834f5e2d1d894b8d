/**
 * Documents in the designer (Chromium against `weir serve`): unsaved work survives a reload,
 * a weir.job/v1 file dropped on the window opens, box selection, and Run shows the job status.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import {
  startServe,
  launchBrowser,
  openDesigner,
  chromiumSkip,
  pageErrors,
  type Served,
} from '../support/designer-support.ts';
import { dragFromPalette, nodeCount, edgeCount, waitFor, mod, viewportSettled } from './designer-helpers.ts';

const skip = chromiumSkip();
let served: Served;
let browser: Browser;
let page: Page;

before(async () => {
  if (skip) return;
  served = await startServe();
  browser = await launchBrowser();
  page = await openDesigner(browser, served.url);
});
after(async () => {
  await browser?.close();
  await served?.close();
});

test('unsaved work is recovered after a reload', { skip, timeout: 60_000 }, async () => {
  await dragFromPalette(page, 'source.generator', { x: 150, y: 150 });
  await dragFromPalette(page, 'sink.preview', { x: 450, y: 150 });
  await waitFor(async () => (await nodeCount(page)) === 2, 'two nodes');
  await page.getByTestId('dirty').waitFor();
  await page.reload();
  await page.getByTestId('app-ready').waitFor();
  await waitFor(async () => (await nodeCount(page)) === 2, 'the recovered nodes');
  await page.getByTestId('dirty').waitFor();
  assert.match((await page.getByTestId('notice').first().textContent()) ?? '', /Recovered unsaved changes/);
});

test(
  'a weir.job/v1 file dropped on the window opens as a new unsaved document',
  { skip, timeout: 60_000 },
  async () => {
    const job = {
      format: 'weir.job/v1',
      name: 'dropped-job',
      nodes: [
        { id: 'gen', type: 'source.generator', position: { x: 0, y: 0 }, config: { count: 10 } },
        { id: 'f', type: 'filter', position: { x: 260, y: 0 }, config: { where: 'seq > 2' } },
        { id: 'p', type: 'sink.preview', position: { x: 520, y: 0 }, config: {} },
      ],
      edges: [
        { from: 'gen', to: 'f' },
        { from: 'f', to: 'p' },
      ],
    };
    page.once('dialog', (d) => {
      void d.accept();
    });
    await page.evaluate((text) => {
      const dt = new DataTransfer();
      dt.items.add(new File([text], 'dropped.weir.json', { type: 'application/json' }));
      const target = document.querySelector('[data-testid="app-ready"]')!;
      target.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
      target.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, JSON.stringify(job));
    await waitFor(async () => (await page.getByTestId('job-name').textContent()) === 'dropped-job', 'the dropped job');
    await waitFor(async () => (await nodeCount(page)) === 3, '3 rendered nodes');
    await waitFor(async () => (await edgeCount(page)) === 2, '2 rendered edges');
    await page.getByTestId('dirty').waitFor();
    assert.equal(await page.getByTestId('summary-f').textContent(), 'where seq > 2');

    // Dropping something that is not a job leaves the document alone and says why.
    await page.evaluate(() => {
      const dt = new DataTransfer();
      dt.items.add(new File(['{"hello": 1}'], 'other.json', { type: 'application/json' }));
      document
        .querySelector('[data-testid="app-ready"]')!
        .dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    });
    await waitFor(
      async () => /not a weir.job\/v1 document/.test((await page.getByTestId('notice').allTextContents()).join(' ')),
      'the refusal',
    );
    assert.equal(await page.getByTestId('job-name').textContent(), 'dropped-job');
  },
);

test('box selection with Shift+drag selects the nodes inside', { skip, timeout: 60_000 }, async () => {
  await page.keyboard.press('f');
  await viewportSettled(page);
  const canvas = (await page.getByTestId('canvas').boundingBox())!;
  const boxes = await Promise.all(['gen', 'f'].map((id) => page.getByTestId(`node-${id}`).boundingBox()));
  const x0 = Math.min(...boxes.map((b) => b!.x)) - 12;
  const y0 = Math.min(...boxes.map((b) => b!.y)) - 12;
  const x1 = Math.max(...boxes.map((b) => b!.x + b!.width)) + 12;
  const y1 = Math.max(...boxes.map((b) => b!.y + b!.height)) + 12;
  assert.ok(x0 > canvas.x && y0 > canvas.y);
  await page.keyboard.down('Shift');
  await page.mouse.move(x0, y0);
  await page.mouse.down();
  await page.mouse.move(x1, y1, { steps: 10 });
  await page.mouse.up();
  await page.keyboard.up('Shift');
  await waitFor(async () => (await page.locator('.react-flow__node.selected').count()) === 2, 'two selected nodes');
  assert.match((await page.getByTestId('inspector').textContent()) ?? '', /2 nodes selected/);
});

test('Run starts the job and the status follows the host events', { skip, timeout: 60_000 }, async () => {
  await page.getByTestId('run').click();
  await waitFor(
    async () =>
      ['running', 'finishing', 'finished'].includes(
        (await page.getByTestId('job-status').getAttribute('data-status')) ?? '',
      ),
    'a running or finished status',
    30_000,
  );
  await waitFor(
    async () => (await page.getByTestId('job-status').textContent()) === 'finished',
    'the bounded job to finish',
    30_000,
  );
  assert.deepEqual(pageErrors(page), []);
});

test(
  'nodes copied in one document paste into another (JSON on the system clipboard)',
  { skip, timeout: 60_000 },
  async () => {
    await page.keyboard.press('Escape');
    await page.getByTestId('node-gen').click();
    await page.getByTestId('node-f').click({ modifiers: ['Shift'] });
    await waitFor(async () => (await page.locator('.react-flow__node.selected').count()) === 2, 'two selected nodes');
    await page.keyboard.press(`${mod}+c`);
    page.once('dialog', (d) => {
      void d.accept();
    });
    await page.keyboard.press('Alt+n');
    await waitFor(async () => (await nodeCount(page)) === 0, 'a new document');
    await page.getByTestId('canvas').click({ position: { x: 300, y: 300 } });
    await page.keyboard.press(`${mod}+v`);
    await waitFor(
      async () => (await nodeCount(page)) === 2 && (await edgeCount(page)) === 1,
      'the pasted nodes and their edge',
    );
    assert.equal(await page.getByTestId('summary-f-1').textContent(), 'where seq > 2');
  },
);

test(
  'a hand-broken file (unknown type, missing config, duplicate id, no position) opens without crashing',
  { skip, timeout: 60_000 },
  async () => {
    const job = {
      format: 'weir.job/v1',
      name: 'broken',
      nodes: [
        { id: 'a', type: 'source.generator', config: { count: 5 } },
        { id: 'b', type: 'teleport', position: { x: 300, y: 0 }, config: {} },
        { id: 'c', type: 'filter', position: { x: 600, y: 0 } },
        { id: 'c', type: 'map', position: { x: 600, y: 200 }, config: { select: '*' } },
      ],
      edges: [
        { from: 'a', to: 'c' },
        { from: 'a', to: 'c' },
        { from: 'a', to: 'ghost' },
      ],
    };
    page.once('dialog', (d) => {
      void d.accept();
    });
    await page.evaluate((text) => {
      const dt = new DataTransfer();
      dt.items.add(new File([text], 'broken.weir.json', { type: 'application/json' }));
      document
        .querySelector('[data-testid="app-ready"]')!
        .dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, JSON.stringify(job));
    await waitFor(async () => (await page.getByTestId('job-name').textContent()) === 'broken', 'the broken job');
    await waitFor(async () => (await nodeCount(page)) === 3, '3 rendered nodes');
    assert.notEqual(await page.getByTestId('problems').getAttribute('data-count'), '0');
    await page.getByTestId('node-b').click();
    await page.getByTestId('node-form').waitFor();
    assert.match((await page.getByTestId('node-form').textContent()) ?? '', /Unknown node type/);
    await page.getByTestId('node-c').click();
    await page.getByTestId('f-where').waitFor();
    await page.keyboard.press('Delete');
    await waitFor(async () => (await nodeCount(page)) === 1 || (await nodeCount(page)) === 2, 'delete');
    assert.deepEqual(pageErrors(page), []);
  },
);
