/**
 * Issue 26, point 5: Save As into another folder keeps relative input paths reading the same files
 * (rebased, and the notice says so), and a file source whose file does not exist is an error on its
 * node, at its path.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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

const job = (name: string, input: string) => ({
  format: 'weir.job/v1',
  name,
  nodes: [
    {
      id: 'orders',
      type: 'source.file',
      name: 'Orders',
      position: { x: 0, y: 0 },
      config: { path: input, format: 'jsonl' },
    },
    {
      id: 'out',
      type: 'sink.file',
      name: 'Copy',
      position: { x: 300, y: 0 },
      config: { path: 'out/copy', format: 'jsonl' },
    },
  ],
  edges: [{ from: 'orders', to: 'out' }],
});

describe('Save As rebases input paths; a missing input is an error on its node', { skip }, () => {
  let serve: ServeProcess;
  let browser: Browser;
  let page: Page;

  before(async () => {
    ensureRenderer();
    serve = await startServe();
    mkdirSync(join(serve.workspace, 'data'));
    writeFileSync(join(serve.workspace, 'data', 'orders.jsonl'), '{"user":"a","amount":12}\n');
    writeFileSync(join(serve.workspace, 'mine.weir.json'), JSON.stringify(job('mine', 'data/orders.jsonl')));
    writeFileSync(join(serve.workspace, 'broken.weir.json'), JSON.stringify(job('broken', 'data/nope.jsonl')));
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(serve.url);
    await page.getByTestId('app-ready').waitFor({ timeout: 30_000 });
  });
  after(async () => {
    await browser?.close();
    await serve?.close();
  });

  async function open(file: string, name: string): Promise<void> {
    await page.getByTestId('doc-open').click();
    await page.getByTestId(`file-${file}`).click();
    await page.getByTestId('job-name').filter({ hasText: name }).waitFor();
  }

  it('Save As into a subfolder rewrites the input path to the same file and says so', async () => {
    await open('mine.weir.json', 'mine');
    await page.getByTestId('doc-save-as').click();
    await page.getByTestId('save-as-path').fill('mine2/orders/mine.weir.json');
    await page.getByTestId('save-as-confirm').click();
    await page.getByTestId('notice').filter({ hasText: 'rebased' }).waitFor();
    assert.match(
      (await page.getByTestId('notice').filter({ hasText: 'rebased' }).textContent()) ?? '',
      /Saved mine2\/orders\/mine\.weir\.json; an input path was rebased to read the same files from the new folder \(orders: data\/orders\.jsonl → \.\.\/\.\.\/data\/orders\.jsonl\)/,
    );
    const saved = JSON.parse(readFileSync(join(serve.workspace, 'mine2', 'orders', 'mine.weir.json'), 'utf8'));
    assert.equal(saved.nodes[0].config.path, '../../data/orders.jsonl');
    assert.equal(saved.nodes[1].config.path, 'out/copy', 'output stays beside the new file');
    assert.equal(await page.getByTestId('problem-orders').count(), 0, 'the input is found from the new folder');
    await page.getByTestId('dirty').waitFor({ state: 'detached' });
  });

  it('a file source whose file does not exist shows the error on its node', async () => {
    await open('broken.weir.json', 'broken');
    const problem = page.getByTestId('problem-orders');
    await problem.waitFor({ timeout: 10_000 });
    assert.match((await problem.textContent()) ?? '', /cannot read data\/nope\.jsonl: no such file/);
    await page.screenshot({ path: artifactPath('first-hour-missing-input.png') });
  });
});
