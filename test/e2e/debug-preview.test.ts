/**
 * Issue 26, preview run: the Preview button runs the open document over the first N records of
 * each source with sinks off and shows each node's rows on the canvas (count badges) and in the
 * live panel's Preview tab, late and bad records apart with their reason; a failing preview names
 * its node in words; New clears it. The click-to-rows time is measured and printed.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { artifactPath, chromiumOrSkip } from './support/serve.ts';
import { openFile } from './live-support.ts';
import { viewportSettled } from './designer-helpers.ts';
import { FAILING_JOB, LATE_BAD_JOB, openApp, previewAndTime, writeDebugJobs, type DebugApp } from './debug-support.ts';

const skip = chromiumOrSkip();

describe('preview run in the designer', { skip }, () => {
  let app: DebugApp;

  before(async () => {
    app = await openApp('orders-per-user');
    writeDebugJobs(app.serve.workspace);
  });
  after(async () => {
    await app?.close();
  });

  it("shows each node's rows over the sample, sinks off, in well under a second", async () => {
    const { page } = app;
    // The first includes the host loading the preview engine; then what a user sees on every click.
    const times: number[] = [];
    for (let i = 0; i < 5; i++) times.push(await previewAndTime(page, 'orders'));
    const warm = times.slice(1).sort((a, b) => a - b)[1];
    console.log(`preview of orders-per-user (100 records), click to rows shown: ${times.join(', ')} ms`);
    assert.ok(warm < 1000, `a warm preview takes ${warm} ms`);

    // The canvas: every node's count; the sink says what it would write.
    assert.equal(await page.getByTestId('pv-badge-orders').getAttribute('data-rows'), '100');
    assert.match((await page.getByTestId('pv-badge-orders').textContent()) ?? '', /^100 rows$/);
    const passed = Number(await page.getByTestId('pv-badge-big').getAttribute('data-rows'));
    assert.ok(passed > 0 && passed < 100, `the filter passes ${passed} of 100`);
    const windows = Number(await page.getByTestId('pv-badge-per_user').getAttribute('data-rows'));
    assert.match((await page.getByTestId('pv-badge-out').textContent()) ?? '', new RegExp(`^would write ${windows}$`));

    // The tab says nothing was written, and nothing was.
    assert.match((await page.getByTestId('preview-summary').textContent()) ?? '', /Sinks off: nothing was written/);
    assert.equal(existsSync(join(app.serve.workspace, 'orders-per-user', 'out')), false);

    // Selecting a node shows its rows: the example's first order, then the filter without it.
    await page.getByTestId('preview-pick-orders').click();
    const first = page.getByTestId('preview-rows-out').locator('tbody tr').first();
    assert.match((await first.textContent()) ?? '', /dave.*1\.27/);
    // A click lands where the node is drawn: not while a fit still animates the canvas under it.
    await viewportSettled(page);
    await page.getByTestId('node-big').click();
    await page.locator('[data-testid="preview-node"][data-node="big"]').waitFor();
    assert.match(
      (await page.getByTestId('preview-rows-out').locator('tbody tr').first().textContent()) ?? '',
      /bob.*96\.87/,
    );
    await page.getByTestId('node-out').click();
    assert.equal(await page.getByTestId('preview-rows-write').getAttribute('data-rows'), String(windows));
    await page.screenshot({ path: artifactPath('debug-preview.png') });
  });

  it('shows late and bad records apart, with their reason', async () => {
    const { page } = app;
    await openFile(page, 'debug-late-bad.weir.json', LATE_BAD_JOB);
    await previewAndTime(page, 'src');
    assert.equal(await page.getByTestId('pv-badge-src').getAttribute('data-bad'), '1');
    assert.equal(await page.getByTestId('pv-badge-win').getAttribute('data-late'), '1');
    assert.match((await page.getByTestId('pv-badge-win').textContent()) ?? '', /2 rows · 1 late/);

    await viewportSettled(page);
    await page.getByTestId('node-src').click();
    await page.locator('[data-testid="preview-node"][data-node="src"]').waitFor();
    assert.match((await page.getByTestId('preview-bad').textContent()) ?? '', /Bad records: 1.*skipped/);
    assert.match(
      (await page.getByTestId('preview-rows-bad').textContent()) ?? '',
      /debug-orders\.jsonl:3.*invalid JSON/,
    );
    await page.getByTestId('node-win').click();
    await page.locator('[data-testid="preview-node"][data-node="win"]').waitFor();
    const late = page.getByTestId('preview-late');
    assert.match((await late.textContent()) ?? '', /Late records: 1.*after the watermark/);
    assert.match((await page.getByTestId('preview-rows-late').textContent()) ?? '', /ann.*2000/);
    assert.match((await page.getByTestId('preview-rows-out').textContent()) ?? '', /bea/);
    await page.screenshot({ path: artifactPath('debug-preview-late-bad.png') });
  });

  it('says in words which node a failing preview stopped at', async () => {
    const { page } = app;
    await openFile(page, 'debug-failing.weir.json', FAILING_JOB);
    // The previous document's preview is gone with it.
    assert.equal(await page.getByTestId('pv-badge-src').count(), 0);
    await page.keyboard.press('p');
    await page.getByTestId('preview-error').waitFor();
    const text = (await page.getByTestId('preview-error').textContent()) ?? '';
    assert.match(text, /Preview failed at User as number \(select\): CAST\('ann' AS INT\) failed/);
    assert.doesNotMatch(text, /\n\s+at /, 'no stack trace');
    assert.match(
      (await page.getByTestId('pv-badge-num').textContent()) ?? '',
      /^preview failed: CAST\('ann' AS INT\) failed/,
    );
    await page.screenshot({ path: artifactPath('debug-preview-error.png') });
  });

  it('a new document clears the preview', async () => {
    const { page } = app;
    await openFile(page, 'debug-late-bad.weir.json', LATE_BAD_JOB);
    await previewAndTime(page, 'src');
    await page.getByTestId('doc-new').click();
    await page.waitForFunction(() => document.querySelectorAll('.react-flow__node').length === 0);
    assert.equal(await page.getByTestId('preview-summary').count(), 0);
    assert.deepEqual(app.pageErrors, []);
  });
});
