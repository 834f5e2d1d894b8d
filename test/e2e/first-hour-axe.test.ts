/**
 * Issue 26, point 7: axe-core (WCAG 2 A and AA rules) finds no violation on the designer and on
 * every live tab of a running job. axe is injected from node_modules into a page whose CSP is
 * bypassed for the test only (the app's own CSP allows no inline script).
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import {
  ROOT,
  chromiumOrSkip,
  ensureRenderer,
  launchChromium,
  startServe,
  type ServeProcess,
} from './support/serve.ts';
import { waitAttr, waitStatus } from './live-support.ts';

const skip = chromiumOrSkip();
const AXE = readFileSync(join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');

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
    await page.addScriptTag({ content: AXE });
  });
  after(async () => {
    await browser?.close();
    await serve?.close();
  });

  async function violations(): Promise<string[]> {
    return page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run: (c: Document, o: unknown) => Promise<unknown> } }).axe;
      const r = (await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] } })) as {
        violations: Array<{ id: string; nodes: Array<{ target: string[]; any: Array<{ message: string }> }> }>;
      };
      return r.violations.flatMap((v) =>
        v.nodes.map((n) => `${v.id} at ${n.target.join(' ')}: ${n.any[0]?.message ?? ''}`),
      );
    });
  }

  it('the designer has no violation', async () => {
    assert.deepEqual(await violations(), []);
  });

  it('no live tab of a running job has a violation', async () => {
    await page.getByTestId('run').click();
    await waitStatus(page, 'running');
    await page.getByTestId('live-tab-overview').click();
    await waitAttr(page, 'cp-count-completed', 'data-count', 1);
    for (const tab of ['overview', 'metrics', 'checkpoints', 'watermarks', 'state', 'data', 'logs']) {
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
