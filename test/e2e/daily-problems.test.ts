/**
 * Problems and refused runs (issue 17), Chromium against `weir serve`: with an empty filter
 * condition and a sink without input, both problems are listed at once in words, each a button
 * that selects its node and focuses its field; Run with that job is refused once, in one notice,
 * and leaves no badge of the previous run on the nodes. Also: `weir serve --workspace` creates a
 * missing folder, and the page loads its icon (no /favicon.ico 404).
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
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
import { openFile, waitStatus, writeLiveJob } from './live-support.ts';

const skip = chromiumOrSkip();

describe('problems in words and refused runs', { skip }, () => {
  let serve: ServeProcess;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];
  const missing: number[] = [];

  before(async () => {
    ensureRenderer();
    serve = await startServe();
    browser = await launchChromium();
    const file = writeLiveJob(serve.workspace);
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    page.on('response', (r) => {
      if (r.status() === 404) missing.push(r.status());
    });
    await page.goto(serve.url);
    await page.getByTestId('app-ready').waitFor({ timeout: 30_000 });
    await openFile(page, file);
  });
  after(async () => {
    await browser?.close();
    await serve?.close();
  });

  it('loads its icon: no request of the page is a 404', async () => {
    const href = await page.locator('link[rel="icon"]').getAttribute('href');
    assert.ok(href, 'the page names an icon');
    const status = await page.evaluate((h) => fetch(h).then((r) => r.status), href);
    assert.equal(status, 200);
    assert.deepEqual(missing, []);
  });

  it('a run leaves badges; a refused run removes them and says why once', async () => {
    await page.getByTestId('run').click();
    await page.getByTestId('live-pos').waitFor({ timeout: 30_000 });
    await page.getByTestId('stop').click();
    await page.waitForFunction(
      () =>
        ['stopped', 'finished', 'canceled'].includes(
          document.querySelector('[data-testid="job-status"]')?.getAttribute('data-status') ?? '',
        ),
      null,
      { timeout: 30_000 },
    );
    assert.equal(await page.getByTestId('live-pos').count(), 1, 'the finished run still shows its figures');

    // Empty the filter's condition and cut the file sink's input.
    await page.getByTestId('node-pos').click();
    await page.getByTestId('f-where').fill('');
    await page.getByTestId('edge-rate-win.out->out').click();
    await page.getByTestId('edge-form').waitFor();
    await page.keyboard.press('Delete');
    await page.waitForFunction(
      () => Number(document.querySelector('[data-testid="problems"]')?.getAttribute('data-count')) >= 2,
    );
    assert.match((await page.getByTestId('problems').textContent()) ?? '', /^2 errors/);

    await page.getByTestId('run').click();
    const notice = page.getByTestId('notice').filter({ hasText: 'Not run' });
    await notice.waitFor();
    assert.equal(await page.getByTestId('notice').count(), 1, 'one message, not two');
    assert.equal(await page.getByTestId('run-cause').count(), 0, 'the status bar does not repeat it');
    assert.equal(await page.locator('[data-testid^="live-"].wnode__live').count(), 0, 'no badge of the previous run');

    // The list opened by itself: every problem, in words.
    const items = page.getByTestId('problem');
    const texts = await items.allTextContents();
    assert.ok(
      texts.some((t) => t.includes('Filter "Positive": condition must not be empty')),
      texts.join('\n'),
    );
    assert.ok(
      texts.some((t) => /File sink "Files": .*no input/.test(t)),
      texts.join('\n'),
    );
    await page.screenshot({ path: artifactPath('problems-1280.png') });

    // Each is clickable to its node and field.
    await items.filter({ hasText: 'condition' }).click();
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'f-where');
    assert.equal(await page.getByTestId('node-form').getAttribute('data-node-id'), 'pos');
    await page.getByTestId('problems').click();
    await items.filter({ hasText: 'Files' }).click();
    await page.getByTestId('node-form').and(page.locator('[data-node-id="out"]')).waitFor();
    await waitStatus(page, 'idle').catch(() => undefined);
    assert.deepEqual(pageErrors, []);
  });
});

describe('weir serve --workspace', () => {
  it('creates a folder that does not exist yet', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'weir-ws-'));
    const dir = join(parent, 'new', 'workspace');
    const { spawn } = await import('node:child_process');
    const { createInterface } = await import('node:readline');
    const child = spawn(
      process.execPath,
      [join(import.meta.dirname, '../../bin/weir.mjs'), 'serve', '--port', '0', '--workspace', dir],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    try {
      const line = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout }).once('line', resolve);
        child.once('exit', (c) => reject(new Error(`exited ${c}`)));
      });
      assert.match(line, /^Weir is running at /);
      assert.ok(existsSync(dir));
    } finally {
      child.kill('SIGTERM');
      rmSync(parent, { recursive: true, force: true });
    }
  });
});
