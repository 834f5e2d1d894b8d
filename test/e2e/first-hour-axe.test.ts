/**
 * Issue 26, point 7: axe-core (WCAG 2 A and AA rules) finds no violation on the designer and on
 * every live tab of a running job. axe is injected from node_modules into a page whose CSP is
 * bypassed for the test only (the app's own CSP allows no inline script).
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { chromiumOrSkip, ensureRenderer, launchChromium, startServe, type ServeProcess } from './support/serve.ts';
import { waitAttr, waitStatus } from './live-support.ts';
import { axeViolations, injectAxe } from './support/axe.ts';

const skip = chromiumOrSkip();

describe('accessibility (axe-core, WCAG 2 A/AA)', { skip }, () => {
  let serve: ServeProcess;
  let browser: Browser;
  let page: Page;

  before(async () => {
    ensureRenderer();
    serve = await startServe(['--example', 'live-sensors']);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1440, height: 900 }, bypassCSP: true });
    await page.goto(serve.url);
    await page.getByTestId('job-name').filter({ hasText: 'live-sensors' }).waitFor({ timeout: 30_000 });
    await injectAxe(page);
  });
  after(async () => {
    await browser?.close();
    await serve?.close();
  });

  const violations = () => axeViolations(page);

  it('the designer has no violation', async () => {
    assert.deepEqual(await violations(), []);
  });

  it('the preview (canvas counts, Preview tab) and a traced record have no violation', async () => {
    await page.getByTestId('preview').click();
    await page.getByTestId('preview-summary').waitFor({ timeout: 30_000 });
    await page.getByTestId('preview-pick-readings').click();
    await page.getByTestId('trace-row-0').click();
    await page.waitForFunction(
      () => document.querySelector('[data-testid="trace-panel"]')?.getAttribute('data-status') === 'done',
      null,
      { timeout: 30_000 },
    );
    await page.getByTestId('trace-banner').waitFor();
    assert.deepEqual(await violations(), []);
    await page.getByTestId('trace-banner-clear').click();
  });

  it('no live tab of a running job has a violation', async () => {
    await page.getByTestId('run').click();
    await waitStatus(page, 'running');
    await page.getByTestId('live-tab-overview').click();
    await waitAttr(page, 'cp-count-completed', 'data-count', 1);
    // The preview's canvas counts stay on the nodes beside the live badges.
    for (const tab of ['overview', 'metrics', 'checkpoints', 'watermarks', 'state', 'data', 'preview', 'logs']) {
      await page.getByTestId(`live-tab-${tab}`).click();
      await page.getByTestId(`live-body-${tab}`).waitFor();
      assert.deepEqual(await violations(), [], tab);
    }
    await page.getByTestId('stop').click();
    await page.waitForFunction(
      () => document.querySelector('[data-testid="job-status"]')?.getAttribute('data-status') === 'stopped',
      null,
      { timeout: 30_000 },
    );
  });
});
