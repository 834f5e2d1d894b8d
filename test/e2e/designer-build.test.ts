/**
 * The designer end to end in Chromium against a real `weir serve`: build a pipeline from an empty
 * canvas with mouse and keyboard only, save, reopen, and check the file with `weir validate`.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import type { Browser, Page } from 'playwright-core';
import {
  startServe,
  launchBrowser,
  openDesigner,
  artifact,
  chromiumSkip,
  pageErrors,
  ROOT,
  type Served,
} from '../support/designer-support.ts';
import { dragFromPalette, dragPort, nodeCount, edgeCount, waitFor, clickPane, mod } from './designer-helpers.ts';

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

test(
  'build, save, reopen and validate a pipeline using mouse and keyboard only',
  { skip, timeout: 120_000 },
  async () => {
    await page.getByTestId('canvas-empty').waitFor();
    await page.screenshot({ path: artifact('designer-empty.png') });

    await dragFromPalette(page, 'source.generator', { x: 120, y: 200 });
    await dragFromPalette(page, 'filter', { x: 400, y: 200 });
    await dragFromPalette(page, 'sink.preview', { x: 440, y: 420 });
    await waitFor(async () => (await nodeCount(page)) === 3, 'three nodes');
    // A new filter has an empty condition: the validator outlines it with the message, live.
    await page.getByTestId('problem-filter-1').waitFor();

    await dragPort(page, 'handle-generator-1-out', 'handle-filter-1-in');
    await dragPort(page, 'handle-filter-1-out', 'handle-preview-1-in');
    await waitFor(async () => (await edgeCount(page)) === 2, 'two edges');

    await page.getByTestId('node-filter-1').click();
    await page.getByTestId('f-where').click();
    await page.keyboard.type("seq >= 10 AND key <> 'k3'");
    await page.getByTestId('f-name').fill('big-orders');
    assert.equal(await page.getByTestId('summary-filter-1').textContent(), "where seq >= 10 AND key <> 'k3'");
    await waitFor(
      async () => (await page.getByTestId('problem-filter-1').count()) === 0,
      'the filter problem to clear',
    );

    // Job settings with nothing selected: checkpoint every 2 s on the fs backend.
    await clickPane(page);
    await page.getByTestId('settings-form').waitFor();
    await page.getByTestId('s-stateBackend').selectOption('fs');
    await page.getByTestId('s-interval').fill('2');
    await page.getByTestId('s-interval-unit').selectOption('s');
    await page.getByTestId('s-name').fill('built-by-hand');

    await page.keyboard.press(`${mod}+s`);
    await page.getByTestId('save-as-path').fill('built.weir.json');
    await page.getByTestId('save-as-confirm').click();
    await waitFor(async () => (await page.getByTestId('dirty').count()) === 0, 'the dirty marker to clear');
    assert.equal(await page.getByTestId('doc-path').textContent(), 'built.weir.json');

    const file = join(served.workspace, 'built.weir.json');
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    assert.equal(saved.format, 'weir.job/v1');
    assert.equal(saved.name, 'built-by-hand');
    assert.deepEqual(saved.settings, { stateBackend: 'fs', checkpointing: { interval: '2s' } });
    assert.deepEqual(saved.edges, [
      { from: 'generator-1', to: 'filter-1' },
      { from: 'filter-1', to: 'preview-1' },
    ]);
    assert.equal(saved.nodes[1].config.where, "seq >= 10 AND key <> 'k3'");
    assert.equal(saved.nodes[1].name, 'big-orders');
    for (const n of saved.nodes)
      assert.ok(Number.isFinite(n.position.x) && Number.isFinite(n.position.y), 'positions are stored');
    const v = spawnSync(process.execPath, [join(ROOT, 'bin', 'weir.mjs'), 'validate', file], { encoding: 'utf8' });
    assert.equal(v.status, 0, `weir validate: ${v.stdout}${v.stderr}`);

    // New document, then reopen the file through the workspace dialog.
    await page.keyboard.press('Alt+n');
    await waitFor(async () => (await nodeCount(page)) === 0, 'an empty canvas');
    await page.keyboard.press(`${mod}+o`);
    await page.getByTestId('file-built.weir.json').first().click();
    await waitFor(async () => (await nodeCount(page)) === 3, 'the reopened nodes');
    await waitFor(async () => (await edgeCount(page)) === 2, '2 rendered edges');
    assert.equal(await page.getByTestId('job-name').textContent(), 'built-by-hand');
    assert.equal(await page.getByTestId('summary-filter-1').textContent(), "where seq >= 10 AND key <> 'k3'");
    assert.deepEqual(pageErrors(page), []);
  },
);
