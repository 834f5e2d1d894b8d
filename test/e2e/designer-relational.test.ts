/**
 * The relational nodes in the designer, in Chromium against a real `weir serve`: join nodes show
 * labelled left/right input handles and a new edge gets its toPort from the handle; changelog edges
 * are drawn differently from append-only ones; the join's select completes columns of both inputs
 * (L.x / R.x); while the job runs, operators with keyed state show their live state size.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import type { JobDocument, JobSettingsInput } from '../../engine/graph/types.ts';
import {
  chromiumOrSkip,
  ensureRenderer,
  launchChromium,
  startServe,
  artifactPath,
  type ServeProcess,
} from './support/serve.ts';
import { openFile, waitStatus, writeLiveJob } from './live-support.ts';

const JOB: JobDocument & { settings: JobSettingsInput } = {
  format: 'weir.job/v1',
  name: 'relational-demo',
  settings: { stateBackend: 'rocksdb', checkpointing: { interval: '500ms', dir: 'checkpoints' }, parallelism: 2 },
  nodes: [
    {
      id: 'orders',
      type: 'source.generator',
      name: 'Orders',
      position: { x: 0, y: 0 },
      config: { seed: 1, rate: 400, keys: 30 },
    },
    {
      id: 'payments',
      type: 'source.generator',
      name: 'Payments',
      position: { x: 0, y: 220 },
      config: { seed: 2, rate: 400, keys: 30 },
    },
    {
      id: 'paid',
      type: 'join.interval',
      name: 'Paid',
      position: { x: 300, y: 110 },
      config: {
        leftKey: 'key',
        rightKey: 'key',
        lower: '-1s',
        upper: '1s',
        select: 'L.key, L.value AS amount, R.value AS paid',
      },
    },
    {
      id: 'per_key',
      type: 'aggregate',
      name: 'Per key',
      position: { x: 600, y: 110 },
      config: { keyBy: 'key', aggregates: 'COUNT(*) AS n, SUM(amount) AS total' },
    },
    { id: 'table', type: 'sink.preview', name: 'Table', position: { x: 900, y: 110 }, config: { limit: 40 } },
  ],
  edges: [
    { from: 'orders', to: 'paid', toPort: 'left' },
    { from: 'payments', to: 'paid', toPort: 'right' },
    { from: 'paid', to: 'per_key' },
    { from: 'per_key', to: 'table' },
  ],
};

const skip = chromiumOrSkip();

describe('designer: joins, aggregates and changelog edges', { skip: skip ?? false, timeout: 180_000 }, () => {
  let serve: ServeProcess;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];

  before(async () => {
    ensureRenderer();
    serve = await startServe();
    browser = await launchChromium();
    const file = writeLiveJob(serve.workspace, 'relational-demo.weir.json', JOB);
    page = await (await browser.newContext({ viewport: { width: 1400, height: 860 } })).newPage();
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(serve.url);
    await page.getByTestId('app-ready').waitFor({ timeout: 30_000 });
    await openFile(page, file, JOB);
  });
  after(async () => {
    await browser?.close();
    await serve?.close();
  });

  it('a join has labelled left and right inputs; the changelog edge is drawn differently', async () => {
    await page.getByTestId('handle-paid-left').waitFor();
    await page.getByTestId('handle-paid-right').waitFor();
    assert.equal(await page.getByTestId('handle-paid-in').count(), 0);
    assert.equal(await page.getByTestId('handle-per_key-in').count(), 1);
    // Edges into the join attach to the port their toPort names.
    const targets = await page.$$eval('.react-flow__edge', (els) =>
      els.map((e) => [
        e.getAttribute('data-testid') ?? e.getAttribute('aria-label') ?? '',
        e.className.baseVal ?? String(e.className),
      ]),
    );
    const changelog = targets.filter(([, c]) => c.includes('wedge--changelog'));
    assert.equal(changelog.length, 1, JSON.stringify(targets));
    const styled = await page.$eval(
      '.wedge--changelog .react-flow__edge-path',
      (p) => getComputedStyle(p).strokeDasharray,
    );
    const plain = await page.$eval(
      '.react-flow__edge:not(.wedge--changelog) .react-flow__edge-path',
      (p) => getComputedStyle(p).strokeDasharray,
    );
    assert.notEqual(styled, plain);
    assert.deepEqual(errors, []);
  });

  it('the join select completes columns of both inputs and accepts L./R. names', async () => {
    await page.getByTestId('node-paid').click();
    const field = page.getByTestId('f-select');
    await field.click();
    await field.press('Control+End');
    await field.type(', R.se');
    await page.waitForFunction(
      () => document.querySelector('[data-testid="f-select-completions"]')?.textContent?.includes('R.seq'),
      null,
      { timeout: 5000 },
    );
    await page.screenshot({ path: artifactPath('designer-relational-inspector.png') });
    await field.press('Tab');
    await page.waitForFunction(() =>
      document.querySelector<HTMLTextAreaElement>('[data-testid="f-select"]')?.value.endsWith('R.seq'),
    );
    assert.equal(await page.getByTestId('f-select-error-mark').count(), 0, 'L./R. names are not errors');
  });

  it('while it runs, keyed operators show their state size', async () => {
    await page.getByTestId('run').click();
    await waitStatus(page, 'running');
    await page.getByTestId('state-per_key').waitFor({ timeout: 30_000 });
    await page.getByTestId('state-paid').waitFor({ timeout: 30_000 });
    assert.match(await page.getByTestId('state-per_key').innerText(), /state\s+[\d.]+ (B|KB|MB)/);
    await page.screenshot({ path: artifactPath('designer-relational-running.png') });
    await page.getByTestId('stop').click();
    assert.deepEqual(errors, []);
  });
});
