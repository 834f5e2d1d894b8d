/**
 * The Export dialog (Chromium against `weir serve`): the open example as a Flink SQL script with
 * column types sampled from its data file, and as weir.job/v1 JSON that round-trips.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import {
  startServe,
  launchBrowser,
  openDesigner,
  chromiumSkip,
  pageErrors,
  artifact,
  type Served,
} from '../support/designer-support.ts';
import { waitFor } from './designer-helpers.ts';

const skip = chromiumSkip();
let served: Served;
let browser: Browser;
let page: Page;

before(async () => {
  if (skip) return;
  served = await startServe({ example: 'orders-per-user' });
  browser = await launchBrowser();
  page = await openDesigner(browser, served.url);
});
after(async () => {
  await browser?.close();
  await served?.close();
});

const exportText = () => page.getByTestId('export-text').inputValue();

test(
  'Export shows the Flink SQL script with typed columns, then the job as JSON',
  { skip, timeout: 60_000 },
  async () => {
    await waitFor(async () => (await page.getByTestId('job-name').textContent()) === 'orders-per-user', 'the example');
    await page.getByTestId('export').click();
    await page.getByTestId('export-dialog').waitFor();
    await waitFor(async () => (await exportText()).includes('EXECUTE STATEMENT SET'), 'the Flink SQL script', 15_000);
    const sql = await exportText();
    assert.match(sql, /SET 'state\.backend\.type' = 'hashmap';/);
    // orders__raw: the table under the source's view that drops records without a valid event time.
    assert.match(
      sql,
      /CREATE TABLE orders__raw \(\n\s+order_id BIGINT,\n\s+`user` STRING,\n\s+amount DOUBLE,/,
      "column types come from sampling the example's data file next to the job",
    );
    assert.match(sql, /TUMBLE\(/);
    await page.screenshot({ path: artifact('designer-export.png') });

    await page.getByTestId('export-json').check();
    await waitFor(async () => (await exportText()).startsWith('{'), 'the JSON document');
    const doc = JSON.parse(await exportText()) as { format: string; name: string; nodes: unknown[] };
    assert.equal(doc.format, 'weir.job/v1');
    assert.equal(doc.name, 'orders-per-user');
    assert.equal(doc.nodes.length, 4);
    assert.deepEqual(pageErrors(page), []);
  },
);
