/**
 * Issue 26, find the bottleneck: while a job runs, an operator's back-pressured time (measured at
 * the sender, as Flink does: backPressuredTimeMsPerSecond) colours its outgoing edges, their label
 * says the percent in words, a legend explains the colours, and the busiest operator is marked.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { artifactPath, chromiumOrSkip } from './support/serve.ts';
import { FAST_JOB, openFile, waitStatus, writeLiveJob } from './live-support.ts';
import { axeViolations, injectAxe } from './support/axe.ts';
import { openApp, type DebugApp } from './debug-support.ts';

const skip = chromiumOrSkip();

describe('find the bottleneck while a job runs', { skip }, () => {
  let app: DebugApp;
  let page: Page;

  before(async () => {
    app = await openApp(undefined, { bypassCSP: true });
    page = app.page;
    await injectAxe(page);
    await openFile(page, writeLiveJob(app.serve.workspace, 'live-fast.weir.json', FAST_JOB), FAST_JOB);
  });
  after(async () => {
    await app?.close();
  });

  it("colours the back-pressured sender's edges, says the percent and marks the busiest operator", async () => {
    await page.getByTestId('run').click();
    await waitStatus(page, 'running');
    // The unthrottled generator outruns the keyed window: the filter before it waits on a full channel.
    const label = page.locator('[data-testid="edge-rate-pos.out->win"][data-bp-level="high"]');
    await label.waitFor({ timeout: 30_000 });
    assert.match((await label.textContent()) ?? '', /back-pressured \d+%/);
    assert.ok(Number(await label.getAttribute('data-backpressured')) >= 50);
    assert.match((await label.getAttribute('title')) ?? '', /The sender pos is back-pressured \d+%/);
    const stroke = await page.evaluate(
      () =>
        getComputedStyle(document.querySelector('[data-testid="rf__edge-pos.out->win"] path.react-flow__edge-path')!)
          .stroke,
    );
    assert.equal(stroke, 'rgb(240, 96, 93)', 'drawn in the error colour');
    // The window's outgoing edges are not back-pressured: it is the slow one, not a waiting one.
    assert.equal(await page.getByTestId('edge-rate-win.out->out').getAttribute('data-bp-level'), 'ok');
    assert.match((await page.getByTestId('bp-legend').textContent()) ?? '', /back-pressured time.*over 50%/);
    // Flink's rule: the receiver of the back-pressured sender that is not back-pressured itself.
    const marked = page.locator('[data-testid="busy-win"][data-bottleneck="true"]');
    await marked.waitFor({ timeout: 20_000 });
    assert.match((await marked.textContent()) ?? '', /^bottleneck · busy/);
    await page.screenshot({ path: artifactPath('debug-bottleneck.png') });
    // Accessible while it shows (axe-core, WCAG 2 A/AA): the percent is text, never colour alone.
    assert.deepEqual(await axeViolations(page), []);
    await page.getByTestId('stop').click();
    await page.waitForFunction(
      () =>
        ['stopped', 'finished', 'canceled'].includes(
          document.querySelector('[data-testid="job-status"]')?.getAttribute('data-status') ?? '',
        ),
      null,
      { timeout: 30_000 },
    );
  });
});
