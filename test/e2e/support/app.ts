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

export interface ServedApp {
  page: Page;
  serve: ServeProcess;
}

export function servedApp(
  opts: {
    viewport?: { width: number; height: number };
    /** Job files (name -> document) written into the workspace before the page opens. */
    files?: Record<string, unknown>;
    /** Accept the page's confirm() prompts (discarding unsaved changes). */
    acceptDialogs?: boolean;
  } = {},
): ServedApp {
  const app = {} as ServedApp & { browser?: Browser };
  before(async () => {
    ensureRenderer();
    app.serve = await startServe();
    for (const [name, doc] of Object.entries(opts.files ?? {}))
      writeFileSync(join(app.serve.workspace, name), JSON.stringify(doc));
    app.browser = await launchChromium();
    app.page = await app.browser.newPage({ viewport: opts.viewport ?? { width: 1280, height: 800 } });
    if (opts.acceptDialogs) app.page.on('dialog', (d) => void d.accept());
    await app.page.goto(app.serve.url);
    await app.page.getByTestId('app-ready').waitFor({ timeout: 30_000 });
  });
  after(async () => {
    await app.browser?.close();
    await app.serve?.close();
  });
  return app;
}

/** Opens a workspace file through Open and waits for its job name in the toolbar. */
export async function openWorkspaceFile(page: Page, file: string, name: string): Promise<void> {
  await page.getByTestId('doc-open').click();
  await page.getByTestId(`file-${file}`).click();
  await page.getByTestId('job-name').filter({ hasText: name }).waitFor();
}
