/**
 * Designer-specific e2e support on top of the shared test/e2e/support/serve.ts (a real
 * `weir serve` on port 0 with a temp workspace, Debian's Chromium): the designer page at 1280x800
 * with clipboard access, and a record of uncaught page errors that tests assert to be empty.
 */
import { existsSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import {
  ROOT,
  ARTIFACTS,
  CHROMIUM,
  chromiumOrSkip,
  ensureRenderer,
  startServe as startShared,
  launchChromium,
  artifactPath,
  type ServeProcess,
} from '../e2e/support/serve.ts';

export { ROOT, ARTIFACTS };
export type Served = ServeProcess;

/** false when Chromium is there; a skip reason when it is missing and optional (throws otherwise). */
export function chromiumSkip(): string | false {
  return chromiumOrSkip() ?? false;
}

export function hasChromium(): boolean {
  return existsSync(CHROMIUM);
}

export async function startServe(opts: { example?: string } = {}): Promise<Served> {
  ensureRenderer();
  const s = await startShared(opts.example ? ['--example', opts.example] : []);
  if (!s.url) {
    await s.close();
    throw new Error(`weir serve printed an unexpected first line: ${s.firstLine}\n${s.stderr()}`);
  }
  return s;
}

export const launchBrowser = launchChromium;
export const artifact = artifactPath;

const uncaught = new WeakMap<Page, string[]>();

/** Uncaught exceptions the page threw since it was opened (tests assert there are none). */
export function pageErrors(page: Page): string[] {
  return uncaught.get(page) ?? [];
}

export async function openDesigner(browser: Browser, url: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(url).origin });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  uncaught.set(page, errors);
  await page.goto(url);
  await page.getByTestId('app-ready').waitFor({ timeout: 20_000 });
  return page;
}
