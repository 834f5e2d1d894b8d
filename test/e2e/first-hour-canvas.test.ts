/**
 * Issue 26, point 6: a wire that would close a cycle is refused as a cycle (not with "use a union",
 * whose advice builds the cycle); the toolbar shows the job's whole name; opening Nexmark q5 copies
 * only q5 and what the queries share.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import {
  artifactPath,
  chromiumOrSkip,
  ensureRenderer,
  launchChromium,
  startServe,
  type ServeProcess,
} from './support/serve.ts';
import { dragPort, edgeCount } from './designer-helpers.ts';

const skip = chromiumOrSkip();

const CHAIN = {
  format: 'weir.job/v1',
  name: 'chain',
  nodes: [
    { id: 'gen', type: 'source.generator', position: { x: 0, y: 0 }, config: { count: 10 } },
    { id: 'f1', type: 'filter', position: { x: 300, y: 0 }, config: { where: 'seq > 1' } },
    { id: 'f2', type: 'filter', position: { x: 600, y: 0 }, config: { where: 'seq > 2' } },
  ],
  edges: [
    { from: 'gen', to: 'f1' },
    { from: 'f1', to: 'f2' },
  ],
};

describe('connections on the canvas', { skip }, () => {
  let serve: ServeProcess;
  let browser: Browser;
  let page: Page;

  before(async () => {
    ensureRenderer();
    serve = await startServe();
    writeFileSync(join(serve.workspace, 'chain.weir.json'), JSON.stringify(CHAIN));
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(serve.url);
    await page.getByTestId('app-ready').waitFor({ timeout: 30_000 });
    await page.getByTestId('doc-open').click();
    await page.getByTestId('file-chain.weir.json').click();
    await page.getByTestId('job-name').filter({ hasText: 'chain' }).waitFor();
  });
  after(async () => {
    await browser?.close();
    await serve?.close();
  });

  it('a wire that would close a cycle is refused as a cycle', async () => {
    const before = await edgeCount(page);
    await dragPort(page, 'handle-f2-out', 'handle-f1-in', { release: false });
    const hint = page.getByTestId('connection-hint');
    await hint.waitFor();
    assert.match((await hint.textContent()) ?? '', /connecting 'f2' to 'f1' would create a cycle/);
    await page.mouse.up();
    await page.waitForFunction(() => !document.querySelector('[data-testid="connection-hint"]'));
    assert.equal(await edgeCount(page), before, 'no edge was added');
  });

  it("the toolbar shows a job's whole name at 1280 x 800, the path giving way first", async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByTestId('examples').click();
    await page.getByTestId('example-nexmark-q5').click();
    const name = page.getByTestId('job-name').filter({ hasText: 'nexmark-q5' });
    await name.waitFor();
    // Opening one Nexmark query copies that query and what it shares (data, README), not all 21.
    assert.deepEqual(readdirSync(join(serve.workspace, 'nexmark-q5')).sort(), [
      'README.md',
      'data',
      'q5.reference.sql',
      'q5.sql',
      'q5.weir.json',
    ]);
    const fits = await name.evaluate((el) => el.scrollWidth <= el.clientWidth);
    assert.ok(fits, `the name is cut: ${await name.evaluate((el) => `${el.scrollWidth} > ${el.clientWidth}`)}`);
    await page.screenshot({
      path: artifactPath('first-hour-toolbar-1280.png'),
      clip: { x: 0, y: 0, width: 1280, height: 60 },
    });
  });

  it('nodes added from the keyboard do not land on top of each other', async () => {
    await page.getByTestId('doc-new').click();
    await page.waitForFunction(() => document.querySelectorAll('.react-flow__node').length === 0);
    for (let i = 1; i <= 2; i++) {
      await page.locator('.react-flow__pane').click({ position: { x: 40, y: 40 } });
      await page.keyboard.press('a');
      await page.getByTestId('quick-add-input').fill('filter');
      await page.keyboard.press('Enter');
      await page.waitForFunction((n) => document.querySelectorAll('.react-flow__node').length === n, i);
    }
    const [a, b] = await Promise.all([0, 1].map((i) => page.locator('.react-flow__node').nth(i).boundingBox()));
    assert.ok(a && b);
    const overlap = a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
    assert.ok(!overlap, `the second node overlaps the first: ${JSON.stringify([a, b])}`);
  });
});
