/**
 * `weir serve` end to end: a real subprocess, Debian's Chromium, the bundled example run to
 * completion through the UI; requests without the token (or from another origin) refused; a
 * screenshot kept in test/artifacts/serve.png.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import type { Browser, Page } from 'playwright-core';
import {
  artifactPath,
  chromiumOrSkip,
  ensureRenderer,
  launchChromium,
  startServe,
  type ServeProcess,
} from './support/serve.ts';

const skip = chromiumOrSkip();

describe('weir serve in a real browser', { skip }, () => {
  let serve: ServeProcess;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  before(async () => {
    ensureRenderer();
    serve = await startServe(['--example', 'orders-per-user']);
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    const code = await serve?.close();
    assert.equal(code, 0, 'weir serve exits cleanly on SIGTERM');
  });

  it('prints exactly its tokenized address first', () => {
    assert.match(
      serve.firstLine,
      /^Weir is running at http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{32,}$/,
      serve.stderr(),
    );
  });

  it('refuses requests without the token', async () => {
    assert.equal((await fetch(`${serve.origin}/`)).status, 403);
    assert.equal((await fetch(`${serve.origin}/?token=not-the-token`)).status, 403);
    assert.equal((await fetch(`${serve.origin}/index.html`)).status, 403);
    const refused = await new Promise<number>((resolve) => {
      const ws = new WebSocket(`ws://127.0.0.1:${serve.port}/ws`);
      ws.once('unexpected-response', (_q, res) => {
        resolve(res.statusCode ?? 0);
        ws.terminate();
      });
      ws.once('open', () => {
        resolve(101);
        ws.close();
      });
      ws.once('error', () => resolve(-1));
    });
    assert.equal(refused, 403);
  });

  it('opens the bundled example, runs it and sees the job finish', async () => {
    const context = await browser.newContext({ viewport: { width: 1400, height: 860 } });
    page = await context.newPage();
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    await page.goto(serve.url);
    await page.getByTestId('app-ready').waitFor({ timeout: 30_000 });
    await page.getByTestId('job-name').filter({ hasText: 'orders-per-user' }).waitFor({ timeout: 20_000 });
    await page.waitForFunction(() => document.querySelectorAll('.react-flow__node').length === 4, null, {
      timeout: 20_000,
    });

    await page.getByTestId('run').click();
    const status = page.getByTestId('job-status');
    await page.waitForFunction(
      () =>
        ['finished', 'failed', 'canceled'].includes(
          document.querySelector('[data-testid="job-status"]')?.getAttribute('data-status') ?? '',
        ),
      null,
      { timeout: 90_000 },
    );
    assert.equal(await status.getAttribute('data-status'), 'finished', (await status.getAttribute('title')) ?? '');
    assert.equal((await status.textContent())?.trim(), 'finished');
    // The run really happened: its sink committed files into the workspace copy of the example.
    assert.ok(readdirSync(join(serve.workspace, 'orders-per-user', 'out', 'per_user')).length > 0);
    await page.screenshot({ path: artifactPath('serve.png'), fullPage: true });
    assert.deepEqual(pageErrors, [], 'no uncaught errors in the page');
  });

  it('refuses the socket from another origin even with the token', async () => {
    // A page on another local port that learned the token still cannot use the API.
    const evil: Server = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end('<!doctype html><title>other</title>');
    });
    await new Promise<void>((r) => evil.listen(0, '127.0.0.1', () => r()));
    const evilPort = (evil.address() as { port: number }).port;
    try {
      const other = await browser.newPage();
      await other.goto(`http://127.0.0.1:${evilPort}/`);
      const outcome = await other.evaluate(
        ([port, token]) =>
          new Promise<string>((resolve) => {
            const ws = new WebSocket(`ws://127.0.0.1:${port}/ws?token=${token}`);
            ws.onopen = () => {
              resolve('open');
              ws.close();
            };
            ws.onerror = () => resolve('refused');
          }),
        [serve.port, serve.token] as const,
      );
      assert.equal(outcome, 'refused');
      const fetched = await other.evaluate(
        (url) =>
          fetch(url).then(
            (r) => String(r.status),
            () => 'blocked',
          ),
        serve.url,
      );
      assert.notEqual(fetched, '200');
      await other.close();
    } finally {
      evil.close();
    }
  });
});
