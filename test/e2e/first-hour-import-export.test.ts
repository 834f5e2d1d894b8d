/**
 * Issue 26, point 4: Import Flink SQL is reachable in the served build (a toolbar button, by
 * dropping a .sql file on the window, and from Open, which lists the workspace's .sql scripts), and the Export dialog offers the Flink version and the path
 * prefix that `weir export --flink-version --path-prefix` has.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
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

const skip = chromiumOrSkip();

const SCRIPT = `CREATE TABLE orders (
  customer STRING,
  amount DOUBLE,
  ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = 'file:///tmp/orders.jsonl', 'format' = 'json');
CREATE TABLE big (customer STRING, amount DOUBLE) WITH ('connector' = 'filesystem', 'path' = 'file:///tmp/out', 'format' = 'json');
INSERT INTO big SELECT customer, amount FROM orders WHERE amount >= 10;
`;
// Four nodes: orders, the filter, a map keeping customer and amount (ts is a column of the rows
// that big does not have, as in Flink) and the sink.

describe('Import Flink SQL and the Export options in the served build', { skip }, () => {
  let serve: ServeProcess;
  let browser: Browser;
  let page: Page;

  before(async () => {
    ensureRenderer();
    serve = await startServe();
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    page.on('dialog', (d) => void d.accept());
    await page.goto(serve.url);
    await page.getByTestId('app-ready').waitFor({ timeout: 30_000 });
  });
  after(async () => {
    await browser?.close();
    await serve?.close();
  });

  const nodes = () => page.locator('.react-flow__node').count();
  const exportShows = (text: string) =>
    page.waitForFunction(
      (t) => document.querySelector<HTMLTextAreaElement>('[data-testid="export-text"]')?.value.includes(t),
      text,
    );

  it('the toolbar opens Import Flink SQL; a pasted script opens on the canvas', async () => {
    await page.getByTestId('import-flink-sql').click();
    await page.getByTestId('import-flink-sql-dialog').waitFor();
    await page.getByTestId('import-flink-sql-text').fill(SCRIPT);
    await page.getByTestId('import-flink-sql-read').click();
    await page.getByTestId('import-flink-sql-problems').waitFor();
    await page.getByTestId('import-flink-sql-open').click();
    await page.waitForFunction(() => document.querySelectorAll('.react-flow__node').length === 4);
    assert.equal(await nodes(), 4);
  });

  it('a .sql file dropped on the window is read by the import dialog at once', async () => {
    await page.getByTestId('doc-new').click();
    await page.waitForFunction(() => document.querySelectorAll('.react-flow__node').length === 0);
    await page.evaluate((text) => {
      const dt = new DataTransfer();
      dt.items.add(new File([text], 'orders.sql', { type: 'application/sql' }));
      const target = document.querySelector('[data-testid="app-ready"]')!;
      target.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
      target.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, SCRIPT);
    await page.getByTestId('import-flink-sql-problems').waitFor();
    assert.equal(await page.getByTestId('import-flink-sql-text').inputValue(), SCRIPT);
    await page.screenshot({ path: artifactPath('first-hour-import-drop.png') });
    await page.getByTestId('import-flink-sql-open').click();
    await page.waitForFunction(() => document.querySelectorAll('.react-flow__node').length === 4);
  });

  it('Open lists the Flink SQL scripts of the workspace and imports the one picked', async () => {
    writeFileSync(join(serve.workspace, 'orders.sql'), SCRIPT);
    await page.getByTestId('doc-new').click();
    await page.waitForFunction(() => document.querySelectorAll('.react-flow__node').length === 0);
    await page.getByTestId('doc-open').click();
    await page.getByTestId('file-orders.sql').click();
    await page.getByTestId('import-flink-sql-problems').waitFor();
    assert.equal(await page.getByTestId('import-flink-sql-text').inputValue(), SCRIPT);
    await page.getByTestId('import-flink-sql-open').click();
    await page.waitForFunction(() => document.querySelectorAll('.react-flow__node').length === 4);
  });

  it('Export offers the Flink version and a path prefix, and names a bad prefix', async () => {
    await page.getByTestId('export').click();
    await page.getByTestId('export-dialog').waitFor();
    const text = () => page.getByTestId('export-text').inputValue();
    await exportShows('Flink 2.x');
    await page.getByTestId('export-flink-version').selectOption('1.19');
    await exportShows('--flink-version 1.19');
    assert.match(await text(), /'state\.checkpoints\.dir'|execution\.checkpointing\.interval|Flink 1\.19/);
    await page.getByTestId('export-path-prefix').fill('s3://bucket/weir/');
    await exportShows('s3://bucket/weir/');
    await page.screenshot({ path: artifactPath('first-hour-export-options.png') });
    await page.getByTestId('export-path-prefix').fill('bucket/weir');
    await page.getByTestId('export-error').waitFor();
    assert.match(
      (await page.getByTestId('export-error').textContent()) ?? '',
      /^Path prefix: a URI such as s3:\/\/bucket\/weir\//,
    );
  });
});
