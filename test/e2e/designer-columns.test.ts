/**
 * Source columns from the data (issue 17), Chromium against `weir serve --example`: the bundled
 * example's file source declares no columns, yet the designer offers the file's real columns with
 * their types in the fields downstream, shows them on the source, and can declare them.
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
import { viewportSettled } from './designer-helpers.ts';

const skip = chromiumOrSkip();

describe('source columns sampled from the data', { skip }, () => {
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
    await page.goto(serve.url);
    await page.getByTestId('app-ready').waitFor({ timeout: 30_000 });
    await page.getByTestId('job-name').filter({ hasText: 'orders-per-user' }).waitFor({ timeout: 20_000 });
    // The first click below must not land before the example's first fit moves its nodes.
    await viewportSettled(page);
  });
  after(async () => {
    await browser?.close();
    await serve?.close();
  });

  it('shows the sampled columns and types on the source', async () => {
    await page.getByTestId('node-orders').click();
    const hint = page.getByTestId('source-columns');
    await page.waitForFunction(
      () => Number(document.querySelector('[data-testid="source-columns"]')?.getAttribute('data-count')) > 0,
      null,
      { timeout: 20_000 },
    );
    const text = (await hint.textContent()) ?? '';
    assert.match(text, /user STRING/);
    assert.match(text, /amount (DOUBLE|BIGINT)/);
  });

  it('offers them, typed, in the fields downstream', async () => {
    await page.getByTestId('node-big').click();
    const where = page.getByTestId('f-where');
    await where.click();
    await page.keyboard.press('End');
    await page.keyboard.type(' AND us');
    const completions = page.getByTestId('f-where-completions');
    await completions.waitFor();
    assert.match((await completions.textContent()) ?? '', /user\s*STRING/);
    await page.screenshot({ path: artifactPath('columns-1280.png') });
    await page.keyboard.press('Escape');
    await page.getByTestId('node-per_user').click();
    const chips = await page.locator('.inspector .expr__cols').first().textContent();
    assert.match(chips ?? '', /user/);
    assert.match(chips ?? '', /amount/);
  });

  it('declares them on the source in one click', async () => {
    await page.getByTestId('node-orders').click();
    await page.getByTestId('declare-columns').click();
    const value = await page.getByTestId('f-columns').inputValue();
    assert.match(value, /user STRING/);
    assert.deepEqual(pageErrors, []);
  });
});
