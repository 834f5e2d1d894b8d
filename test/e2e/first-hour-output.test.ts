/**
 * Issue 26, point 2: after a run every sink says where it wrote (an absolute folder in Overview and
 * in the sink's Data tab) and the Data tab shows the committed rows, newest first, a page at a time,
 * read back from the committed files (never a pending transaction).
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
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
import { attr, num, waitAttr, waitStatus } from './live-support.ts';

const skip = chromiumOrSkip();

describe('where the output went, and what was committed there', { skip }, () => {
  let serve: ServeProcess;
  let browser: Browser;
  let page: Page;

  before(async () => {
    ensureRenderer();
    serve = await startServe();
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(serve.url);
    await page.getByTestId('app-ready').waitFor({ timeout: 30_000 });
    await page.getByTestId('examples').click();
    await page.getByTestId('example-orders-per-user').click();
    await page.getByTestId('job-name').filter({ hasText: 'orders-per-user' }).waitFor();
  });
  after(async () => {
    await browser?.close();
    await serve?.close();
  });

  /** Every committed line, newest first: files by modification time, each from its last line. */
  function committedNewestFirst(dir: string): unknown[] {
    return readdirSync(dir)
      .filter((n) => /^part-.*\.jsonl$/.test(n))
      .sort((a, b) => statSync(join(dir, b)).mtimeMs - statSync(join(dir, a)).mtimeMs)
      .flatMap((n) =>
        readFileSync(join(dir, n), 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as unknown)
          .reverse(),
      );
  }

  it('after the run Overview names the absolute folder of every sink, with its committed rows', async () => {
    await page.getByTestId('run').click();
    await waitStatus(page, 'finished');
    await page.getByTestId('live-tab-overview').click();
    const dir = join(serve.workspace, 'orders-per-user', 'out', 'per_user');
    await page.waitForFunction(
      (d) => document.querySelector('[data-testid="sink-location-out"]')?.getAttribute('data-location') === d,
      dir,
    );
    const expected = committedNewestFirst(dir);
    assert.ok(expected.length > 100, `guard: the run committed ${expected.length} rows`);
    assert.match(
      (await page.getByTestId('sink-location-out').textContent()) ?? '',
      new RegExp(`${expected.length} rows committed in ${dir}`),
    );
  });

  it("the sink's Data tab shows the committed rows newest first, paged", async () => {
    await page.getByTestId('sink-location-out').getByRole('button').click();
    await page.getByTestId('committed-output').waitFor();
    const dir = join(serve.workspace, 'orders-per-user', 'out', 'per_user');
    const expected = committedNewestFirst(dir);
    await waitAttr(page, 'committed-output', 'data-total', expected.length);
    assert.equal(await attr(page, 'committed-output', 'data-location'), dir);
    assert.match(
      (await page.getByTestId('committed-location').textContent()) ?? '',
      /\/orders-per-user\/out\/per_user$/,
    );
    assert.equal(await num(page, 'committed-output', 'data-rows'), 50);
    assert.equal(await page.getByTestId('open-folder').count(), 0, 'served mode has no file manager to open');

    const heads = await page.locator('[data-testid="committed-table"] thead th').allTextContents();
    const rowAt = async (i: number) => {
      const cells = await page
        .locator(`[data-testid="committed-table"] tbody tr:nth-child(${i + 1}) td`)
        .allTextContents();
      return Object.fromEntries(heads.map((h, j) => [h, cells[j]]));
    };
    const asShown = (r: unknown) =>
      Object.fromEntries(heads.map((h) => [h, String((r as Record<string, unknown>)[h] ?? '')]));
    assert.deepEqual(await rowAt(0), asShown(expected[0]), 'the newest committed row first');
    await page.screenshot({ path: artifactPath('first-hour-committed-output.png') });

    await page.getByTestId('committed-older').click();
    await page.waitForFunction(
      () => document.querySelector('[data-testid="committed-output"]')?.getAttribute('data-offset') === '50',
    );
    await page.waitForFunction(
      (r) => {
        const cells = [...document.querySelectorAll('[data-testid="committed-table"] tbody tr:first-child td')];
        return cells.map((c) => c.textContent).join('|') === r;
      },
      heads.map((h) => String((expected[50] as Record<string, unknown>)[h] ?? '')).join('|'),
    );
    assert.match(
      (await page.getByTestId('committed-count').textContent()) ?? '',
      new RegExp(`rows 51–100 of ${expected.length}, newest first`),
    );
  });

  it('running again asks in an in-app dialog with three choices; Cancel keeps the previous run on screen', async () => {
    const native: string[] = [];
    page.on('dialog', (d) => {
      native.push(d.message());
      void d.dismiss();
    });
    await page.getByTestId('live-tab-overview').click();
    const completed = await num(page, 'cp-count-completed');
    assert.ok(completed >= 1, 'guard: the first run completed checkpoints');
    await page.getByTestId('run').click();
    await page.getByTestId('rerun-dialog').waitFor();
    const dir = join(serve.workspace, 'orders-per-user', 'out', 'per_user');
    assert.equal(
      await page.getByTestId('rerun-text').textContent(),
      `Per-user totals holds what an earlier run committed (1 file in ${dir}). Running from the start would write everything a second time.`,
    );
    assert.deepEqual(await page.locator('[data-testid="rerun-dialog"] .modal__actions button').allTextContents(), [
      'Cancel',
      'Delete that output and start over',
      'Continue from the latest checkpoint',
    ]);
    await page.screenshot({ path: artifactPath('first-hour-rerun-dialog.png') });
    await page.getByTestId('rerun-cancel').click();
    await page.getByTestId('rerun-dialog').waitFor({ state: 'detached' });
    assert.equal(await attr(page, 'job-status', 'data-status'), 'finished', 'the previous run, as it was');
    assert.equal(await num(page, 'cp-count-completed'), completed);
    assert.equal((await page.getByTestId('live-per_user').getAttribute('data-watermark')) !== null, true);

    await page.getByTestId('run').click();
    await page.getByTestId('rerun-clear').click();
    await waitStatus(page, 'finished');
    await page.waitForFunction(
      (d) => document.querySelector('[data-testid="sink-location-out"]')?.getAttribute('data-location') === d,
      dir,
    );
    assert.equal(committedNewestFirst(dir).length, 146, 'one copy of the output, not two');
    assert.deepEqual(native, [], 'no native confirm');
  });

  it('Logs say where a run restored from', async () => {
    await page.getByTestId('ctl-resume').click();
    await waitStatus(page, 'finished');
    await page.getByTestId('live-tab-logs').click();
    await page
      .locator('[data-testid="log-entry"]')
      .filter({ hasText: 'job started, restored from the latest retained checkpoint' })
      .waitFor();
  });
});
