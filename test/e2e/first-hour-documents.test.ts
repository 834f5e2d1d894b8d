/**
 * Issue 26, point 3: the live panel belongs to the open document. After a run, New, Open and an
 * example start with a clean live panel (no status, checkpoints, logs or node badges of the other
 * job) while that job keeps running, attached to its own document: reopening it shows its run again.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
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
import { LIVE_JOB, attr, num, openFile, waitAttr, waitStatus, writeLiveJob } from './live-support.ts';

const skip = chromiumOrSkip();

describe('the live panel follows the open document', { skip }, () => {
  let serve: ServeProcess;
  let browser: Browser;
  let page: Page;
  let file: string;

  before(async () => {
    ensureRenderer();
    serve = await startServe();
    browser = await launchChromium();
    file = writeLiveJob(serve.workspace);
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    page.on('dialog', (d) => void d.accept());
    await page.goto(serve.url);
    await page.getByTestId('app-ready').waitFor({ timeout: 30_000 });
    await openFile(page, file);
  });
  after(async () => {
    await browser?.close();
    await serve?.close();
  });

  /** The newest checkpoint the running job wrote (its folder lists chk-N). */
  function newestCheckpoint(): number {
    const dir = join(serve.workspace, 'checkpoints', LIVE_JOB.name);
    if (!existsSync(dir)) return 0;
    return Math.max(0, ...readdirSync(dir).map((n) => Number(/^chk-(\d+)$/.exec(n)?.[1] ?? 0)));
  }

  async function whileTheOtherJobCheckpoints(): Promise<void> {
    const seen = newestCheckpoint();
    const deadline = Date.now() + 20_000;
    while (newestCheckpoint() < seen + 2) {
      if (Date.now() > deadline) throw new Error(`the detached job wrote no checkpoint after chk-${seen}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async function assertClean(what: string): Promise<void> {
    assert.equal(await attr(page, 'job-status', 'data-status'), 'idle', `${what}: no run status`);
    assert.equal(await page.locator('[data-testid^="live-"][data-watermark]').count(), 0, `${what}: no node badges`);
    await page.getByTestId('live-tab-overview').click();
    assert.equal(await num(page, 'cp-count-completed'), 0, `${what}: no checkpoints`);
    await page.getByTestId('live-tab-logs').click();
    assert.equal(await num(page, 'logs'), 0, `${what}: no log entries`);
  }

  it('New starts clean while the job keeps running; reopening its document shows the run again', async () => {
    await page.getByTestId('run').click();
    await waitStatus(page, 'running');
    await page.getByTestId('live-tab-overview').click();
    await waitAttr(page, 'cp-count-completed', 'data-count', 2);

    await page.getByTestId('doc-new').click();
    await page.waitForFunction(() => document.querySelectorAll('.react-flow__node').length === 0);
    await whileTheOtherJobCheckpoints();
    await assertClean('New');
    await page.screenshot({ path: artifactPath('first-hour-new-clean.png') });

    await openFile(page, file);
    await waitStatus(page, 'running');
    await page.getByTestId('live-tab-overview').click();
    const adopted = await waitAttr(page, 'cp-count-completed', 'data-count', 2);
    await waitAttr(page, 'cp-count-completed', 'data-count', adopted + 1);
    await page.getByTestId('live-win').waitFor();
  });

  it('an example opened meanwhile starts clean too; Stop still stops the job of its own document', async () => {
    await page.getByTestId('examples').click();
    await page.getByTestId('example-orders-per-user').click();
    await page.getByTestId('job-name').filter({ hasText: 'orders-per-user' }).waitFor();
    await whileTheOtherJobCheckpoints();
    await assertClean('an example');

    await openFile(page, file);
    await waitStatus(page, 'running');
    await page.getByTestId('stop').click();
    await page.waitForFunction(
      () =>
        ['stopped', 'canceled', 'finished'].includes(
          document.querySelector('[data-testid="job-status"]')?.getAttribute('data-status') ?? '',
        ),
      null,
      { timeout: 30_000 },
    );
  });
});
