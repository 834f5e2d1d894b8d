/**
 * One served app per `describe`: `weir serve` on a temp workspace (with `files` written into it),
 * Chromium, and a page on the app once it is ready; all released in `after`. Call it inside the
 * describe; read `page` and `serve` in the tests (they are set by the time a test runs).
 */
import { before, after } from 'node:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { ensureRenderer, launchChromium, startServe, type ServeProcess } from './serve.ts';
import { viewportSettled } from './viewport.ts';

export interface ServedApp {
  page: Page;
  serve: ServeProcess;
}

export interface OpenedApp extends ServedApp {
  browser: Browser;
  /** Uncaught errors of the page, for tests that assert there were none. */
  pageErrors: string[];
  close(): Promise<void>;
}

export interface AppOptions {
  /** `weir serve --example NAME`: the page waits until that example is open. */
  example?: string;
  viewport?: { width: number; height: number };
  /** Job files (name -> document) written into the workspace before the page opens. */
  files?: Record<string, unknown>;
  /** Accept the page's confirm() prompts (discarding unsaved changes). */
  acceptDialogs?: boolean;
  /** Lets a test inject axe-core. */
  bypassCSP?: boolean;
}

/** `weir serve` on a temp workspace and a Chromium page on the app once it is ready. */
export async function launchApp(opts: AppOptions = {}): Promise<OpenedApp> {
  ensureRenderer();
  const serve = await startServe(opts.example ? ['--example', opts.example] : []);
  for (const [name, doc] of Object.entries(opts.files ?? {}))
    writeFileSync(join(serve.workspace, name), JSON.stringify(doc));
  const browser = await launchChromium();
  const page = await browser.newPage({
    viewport: opts.viewport ?? { width: 1280, height: 800 },
    bypassCSP: !!opts.bypassCSP,
  });
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  if (opts.acceptDialogs) page.on('dialog', (d) => void d.accept());
  await page.goto(serve.url);
  await page.getByTestId('app-ready').waitFor({ timeout: 30_000 });
  if (opts.example) {
    await page.getByTestId('job-name').filter({ hasText: opts.example }).waitFor({ timeout: 30_000 });
    // A click must not land before the opened job's first fit moves its nodes.
    await viewportSettled(page);
  }
  return {
    serve,
    browser,
    page,
    pageErrors,
    async close() {
      await browser.close();
      await serve.close();
    },
  };
}

/** launchApp for a whole `describe`: opened in `before`, closed in `after`. */
export function servedApp(opts: AppOptions = {}): ServedApp {
  const app = {} as ServedApp;
  let opened: OpenedApp | undefined;
  before(async () => {
    opened = await launchApp(opts);
    app.page = opened.page;
    app.serve = opened.serve;
  });
  after(async () => {
    await opened?.close();
  });
  return app;
}

/** Opens a workspace file through Open and waits for its job name in the toolbar. */
export async function openWorkspaceFile(page: Page, file: string, name: string): Promise<void> {
  await page.getByTestId('doc-open').click();
  await page.getByTestId(`file-${file}`).click();
  await page.getByTestId('job-name').filter({ hasText: name }).waitFor();
  await viewportSettled(page);
}
