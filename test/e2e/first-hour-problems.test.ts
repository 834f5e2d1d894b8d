/**
 * Issue 26, point 6 and point 5: a source whose input file is missing is counted among the problems
 * in the status bar (and its line selects the node), not only outlined on the canvas; and a new or
 * opened document shows the inspector from its top, not at the previous document's scroll position.
 */
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { artifactPath, chromiumOrSkip } from './support/serve.ts';
import { openWorkspaceFile, servedApp } from './support/app.ts';

const skip = chromiumOrSkip();

const MISSING = {
  format: 'weir.job/v1',
  name: 'missing-input',
  nodes: [
    {
      id: 'orders',
      type: 'source.file',
      name: 'Orders',
      position: { x: 0, y: 0 },
      config: { path: 'data/nowhere.jsonl', format: 'jsonl' },
    },
    { id: 'peek', type: 'sink.preview', name: 'Preview', position: { x: 300, y: 0 }, config: {} },
  ],
  edges: [{ from: 'orders', to: 'peek' }],
};

describe('problems in the status bar, the inspector of a fresh document', { skip }, () => {
  const app = servedApp({ files: { 'missing.weir.json': MISSING }, acceptDialogs: true });
  let page: Page;
  before(() => {
    page = app.page;
  });
  const openFile = (file: string, name: string) => openWorkspaceFile(page, file, name);

  it('a missing input file is counted in the status bar and its line selects the node', async () => {
    await openFile('missing.weir.json', 'missing-input');
    await page.getByTestId('problem-orders').waitFor();
    const problems = page.getByTestId('problems');
    await page.waitForFunction(() =>
      /^1 error/.test(document.querySelector('[data-testid="problems"]')?.textContent ?? ''),
    );
    await problems.click();
    // The other line is the warning that the source's columns are unknown (nothing to sample).
    const line = page.getByTestId('problem-list').getByTestId('problem').filter({ hasText: 'no such file' });
    assert.equal(await line.count(), 1);
    assert.equal(await line.getAttribute('data-node-id'), 'orders');
    assert.match((await line.textContent()) ?? '', /Orders.*cannot read data\/nowhere\.jsonl: no such file/);
    await page.screenshot({ path: artifactPath('first-hour-missing-input-status.png') });
    await line.click();
    await page.getByTestId('node-form').and(page.locator('[data-node-id="orders"]')).waitFor();
  });

  it('New and Open show the inspector from its top', async () => {
    const inspector = page.getByTestId('inspector');
    const scrolledDown = async () => {
      await inspector.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
      assert.ok((await inspector.evaluate((el) => el.scrollTop)) > 100, 'guard: the settings form scrolls');
    };
    await page.getByTestId('examples').click();
    await page.getByTestId('example-orders-per-user').click();
    await page.getByTestId('job-name').filter({ hasText: 'orders-per-user' }).waitFor();
    await scrolledDown();
    await page.getByTestId('doc-new').click();
    await page.waitForFunction(() => document.querySelectorAll('.react-flow__node').length === 0);
    assert.equal(await inspector.evaluate((el) => el.scrollTop), 0, 'after New');
    await scrolledDown();
    await openFile('missing.weir.json', 'missing-input');
    assert.equal(await inspector.evaluate((el) => el.scrollTop), 0, 'after Open');
  });
});
