/**
 * `npm install && npm start` without Electron's binary (issue 17): install never runs electron's
 * postinstall (package.json allowScripts), and `npm start` then says in one line why there is no
 * window and serves the app instead, which opens in Chromium. Run with ELECTRON_SKIP_BINARY_DOWNLOAD
 * (as CI installs), so no download is attempted; skipped where an Electron binary is installed
 * (start would open the window instead).
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Browser } from 'playwright-core';
import { ROOT, artifactPath, chromiumOrSkip, ensureRenderer, launchChromium } from './support/serve.ts';
import { attr, waitAttr, waitStatus } from './live-support.ts';

function electronInstalled(): boolean {
  try {
    const p = createRequire(join(ROOT, 'package.json'))('electron');
    return typeof p === 'string' && existsSync(p);
  } catch {
    return false;
  }
}

const skip =
  chromiumOrSkip() ?? (electronInstalled() ? 'an Electron binary is installed: npm start opens its window' : undefined);

describe('npm start without the Electron binary', { skip }, () => {
  let child: ChildProcess;
  let browser: Browser;
  const workspace = mkdtempSync(join(tmpdir(), 'weir-start-'));
  const lines: string[] = [];
  let address = '';

  before(async () => {
    ensureRenderer(); // built under the shared lock, so start.mjs finds it up to date
    child = spawn(process.execPath, [join(ROOT, 'scripts', 'start.mjs')], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      // BROWSER=true: `--open` must not start a real browser on the test machine.
      env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1', WEIR_WORKSPACE: workspace, BROWSER: 'true' },
    });
    address = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no address in 120 s:\n${lines.join('\n')}`)), 120_000);
      createInterface({ input: child.stdout! }).on('line', (l) => {
        lines.push(l);
        const m = /^Weir is running at (http:\/\/\S+)$/.exec(l);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      });
      child.once('exit', (c) => {
        clearTimeout(timer);
        reject(new Error(`npm start exited ${c}:\n${lines.join('\n')}`));
      });
    });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(workspace, { recursive: true, force: true });
  });

  it("install never runs electron's postinstall", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      allowScripts: Record<string, boolean>;
    };
    assert.equal(pkg.allowScripts.electron, false);
  });

  it('says in one line why there is no window, then serves the app on the example', async () => {
    const why = lines.filter((l) => l.startsWith('No Electron window:'));
    assert.equal(why.length, 1, lines.join('\n'));
    assert.match(why[0], /ELECTRON_SKIP_BINARY_DOWNLOAD/);
    assert.ok(readdirSync(workspace).includes('live-sensors'), 'the example was copied into the workspace');
    assert.match(
      readFileSync(join(ROOT, 'README.md'), 'utf8'),
      /npm start +# opens the app on an example that keeps running \(examples\/live-sensors\)/,
    );
  });

  it('the example keeps running: checkpoints, watermarks, state sizes and charts move within seconds', async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    page.on('dialog', (d) => void d.dismiss()); // a fresh workspace has no earlier output to ask about
    await page.goto(address);
    await page.getByTestId('job-name').filter({ hasText: 'live-sensors' }).waitFor({ timeout: 30_000 });
    const started = Date.now();
    await page.getByTestId('run').click();
    await waitStatus(page, 'running');
    await page.getByTestId('live-tab-overview').click();
    const first = await waitAttr(page, 'cp-count-completed', 'data-count', 1, 15_000);
    await waitAttr(page, 'cp-count-completed', 'data-count', first + 2, 15_000);
    const w1 = Number(await attr(page, 'live-per_sensor', 'data-watermark'));
    await waitAttr(page, 'live-per_sensor', 'data-watermark', w1 + 2000, 15_000);
    await page.getByTestId('live-tab-state').click();
    await waitAttr(page, 'state-per_sensor-0', 'data-bytes', 1, 15_000);
    await page.getByTestId('live-tab-metrics').click();
    await waitAttr(page, 'metrics-row-live', 'data-in', 8, 15_000); // a window of 8 sensors closed into the table
    const seconds = (Date.now() - started) / 1000;
    assert.ok(seconds < 20, `moving after ${seconds.toFixed(1)} s`);
    await page.screenshot({ path: artifactPath('start-live-sensors.png') });
    assert.equal(await attr(page, 'job-status', 'data-status'), 'running', 'still running: it is unbounded');
    await page.getByTestId('stop').click();
    await page.waitForFunction(
      () =>
        ['stopped', 'canceled'].includes(
          document.querySelector('[data-testid="job-status"]')?.getAttribute('data-status') ?? '',
        ),
      null,
      { timeout: 30_000 },
    );
  });

  it('the bounded examples stay in the Examples list', async () => {
    const page = await browser.newPage();
    await page.goto(address);
    await page.getByTestId('job-name').filter({ hasText: 'live-sensors' }).waitFor({ timeout: 30_000 });
    await page.getByTestId('examples').click();
    for (const id of ['live-sensors', 'orders-per-user', 'sensor-sliding', 'nexmark-q5'])
      await page.getByTestId(`example-${id}`).waitFor();
  });
});
