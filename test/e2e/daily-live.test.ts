/**
 * The live panel for daily work (issue 17), Chromium against `weir serve`: per-operator records
 * in / out on the nodes and in the Metrics tab with their history charts; the Logs tab with the
 * task process's stderr, a restart and its cause, filterable; the canvas marking where it differs
 * from the running job; a finished job's leftover checkpoint shown as discarded, not failed; bad
 * records logged with file and line. Screenshots at 1280x800 and 1920x1080.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import {
  artifactPath,
  chromiumOrSkip,
  ensureRenderer,
  launchChromium,
  startServe,
  type ServeProcess,
} from './support/serve.ts';
import { openFile, waitStatus, writeLiveJob } from './live-support.ts';
import type { JobDocument } from '../../engine/graph/types.ts';

const skip = chromiumOrSkip();
const STDERR_MARK = 'weir-e2e-task-stderr-line';

/** A small file job with one bad line (line 3), run to its end. */
const FILE_JOB: JobDocument = {
  format: 'weir.job/v1',
  name: 'bad-lines',
  settings: { stateBackend: 'memory', checkpointing: { interval: '100ms' }, parallelism: 1 },
  nodes: [
    {
      id: 'src',
      type: 'source.file',
      name: 'Readings file',
      position: { x: 0, y: 0 },
      config: {
        path: 'data/readings.jsonl',
        format: 'jsonl',
        onBadRecord: 'skip',
        eventTime: { field: 'ts', maxOutOfOrderness: '1s' },
      },
    },
    { id: 'peek', type: 'sink.preview', name: 'Preview', position: { x: 300, y: 0 }, config: {} },
  ],
  edges: [{ from: 'src', to: 'peek' }],
};

describe('live panel for daily work', { skip }, () => {
  let serve: ServeProcess;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  before(async () => {
    ensureRenderer();
    // Every task process writes one stderr line at start (a test hook the launcher already has).
    process.env.WEIR_TASK_NODE_ARGS = `--import=data:text/javascript,console.error("${STDERR_MARK}")`;
    try {
      serve = await startServe();
    } finally {
      delete process.env.WEIR_TASK_NODE_ARGS;
    }
    browser = await launchChromium();
    const file = writeLiveJob(serve.workspace);
    mkdirSync(join(serve.workspace, 'data'), { recursive: true });
    const lines = Array.from({ length: 400 }, (_, i) => JSON.stringify({ id: i, ts: 1_700_000_000_000 + i * 10 }));
    lines.splice(2, 0, '{"id": broken');
    writeFileSync(join(serve.workspace, 'data', 'readings.jsonl'), `${lines.join('\n')}\n`);
    writeFileSync(join(serve.workspace, 'bad-lines.weir.json'), JSON.stringify(FILE_JOB, null, 2));
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    await page.goto(serve.url);
    await page.getByTestId('app-ready').waitFor({ timeout: 30_000 });
    await openFile(page, file);
  });
  after(async () => {
    await browser?.close();
    await serve?.close();
  });

  it('shows records in / out per operator on the nodes and in the Metrics tab, with history charts', async () => {
    await page.getByTestId('run').click();
    await waitStatus(page, 'running');
    await page.waitForFunction(
      () => /out [1-9]/.test(document.querySelector('[data-testid="io-gen"]')?.textContent ?? ''),
      null,
      { timeout: 30_000 },
    );
    assert.match((await page.getByTestId('io-pos').textContent()) ?? '', /in .* → out /);
    // Readable at the zoom that fits the job into 1280x800: the badge text is at least 9 px on screen.
    const px = await page.getByTestId('live-pos').evaluate((el) => {
      const m = /scale\(([\d.]+)\)/.exec(
        (document.querySelector('.react-flow__viewport') as HTMLElement).style.transform,
      );
      return parseFloat(getComputedStyle(el).fontSize) * Number(m?.[1] ?? 1);
    });
    assert.ok(px >= 9.9, `badge text is ${px.toFixed(1)} px on screen`);
    await page.getByTestId('live-tab-metrics').click();
    await page.waitForFunction(
      () => Number(document.querySelector('[data-testid="metrics-row-pos"]')?.getAttribute('data-in')) > 0,
      null,
      { timeout: 30_000 },
    );
    const row = page.getByTestId('metrics-row-pos');
    // Both figures in one read: two reads could straddle a metrics update (run 3 of the loaded
    // suite read 23 in, then 87 out of the next tick).
    const [inN, outN] = await row.evaluate((el) => [Number(el.dataset.in), Number(el.dataset.out)]);
    assert.ok(outN <= inN, `a filter emits at most what it reads (${inN} in, ${outN} out)`);
    // Three points a second apart, then the checkpoint charts have completed checkpoints.
    await page.waitForFunction(
      () => Number(document.querySelector('[data-testid="chart-throughput"]')?.getAttribute('data-points')) >= 3,
      null,
      { timeout: 30_000 },
    );
    await page.waitForFunction(
      () => Number(document.querySelector('[data-testid="chart-cp-duration"]')?.getAttribute('data-points')) >= 2,
      null,
      { timeout: 30_000 },
    );
    assert.equal(await page.locator('[data-testid="chart-lag"] canvas').count(), 1, 'drawn by uPlot on a canvas');
    // The sample table shows averages to six significant digits, not 16.
    await page
      .getByTestId('node-peek')
      .click({ position: { x: 30, y: 12 } })
      .catch(() => undefined);
    await page.getByTestId('live-tab-data').click();
    await page.waitForFunction(
      () => Number(document.querySelector('[data-testid="data-sample"]')?.getAttribute('data-count')) > 0,
      null,
      { timeout: 30_000 },
    );
    const cells = await page.locator('[data-testid="data-sample"] td').allTextContents();
    assert.ok(
      cells.some((c) => /^\d+\.\d+$/.test(c)),
      `some fractional average: ${cells.slice(0, 12).join(' | ')}`,
    );
    assert.ok(
      cells.every((c) => !/\.\d{6,}$/.test(c)),
      'no long fractions',
    );
    // At 1280 px the checkpoints table fits its panel: the last column is not cut.
    await page.getByTestId('live-tab-checkpoints').click();
    await page.getByTestId('cp-history').waitFor();
    const overflow = await page.locator('.cp-history').evaluate((el) => el.scrollWidth - el.clientWidth);
    assert.ok(overflow <= 1, `checkpoints table overflows by ${overflow} px`);
    await page.screenshot({ path: artifactPath('checkpoints-1280.png') });
    await page.getByTestId('live-tab-metrics').click();
    await page.getByTestId('live-panel').evaluate((el) => {
      (el as HTMLElement).style.height = '430px';
    });
    await page.screenshot({ path: artifactPath('metrics-1280.png') });
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.waitForFunction(
      () => Number(document.querySelector('[data-testid="chart-throughput"]')?.getAttribute('data-points')) >= 5,
      null,
      { timeout: 30_000 },
    );
    await page.screenshot({ path: artifactPath('metrics-1920.png') });
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('marks the canvas where it differs from the running job', async () => {
    assert.equal(await page.getByTestId('drift').count(), 0, 'no mark before an edit');
    await page.getByTestId('node-pos').click();
    await page.getByTestId('f-where').fill('value > 0.5');
    await page.getByTestId('drift-pos').waitFor();
    assert.equal(await page.getByTestId('drift-pos').getAttribute('data-drift'), 'changed');
    // A rename is not a change of the running job.
    await page.getByTestId('f-name').fill('Positive only');
    assert.equal(await page.getByTestId('drift-gen').count(), 0);
    // Delete the preview sink: named in the banner. (The panel is folded so the minimap covers no node.)
    await page.getByTestId('live-toggle').click();
    await page.getByTestId('zoom-fit').click();
    // The fit animates: click the node once it has stopped moving, and delete only once it is selected
    // (a click during the animation can land beside it, and Delete then removes nothing).
    const peek = page.getByTestId('node-peek');
    await waitUntilStill(page, peek);
    await peek.click({ position: { x: 30, y: 12 } });
    await page.locator('[data-testid="node-peek"].is-selected').waitFor();
    await page.keyboard.press('Delete');
    await page.getByTestId('drift').filter({ hasText: 'removed (Preview)' }).waitFor();
    assert.match((await page.getByTestId('drift').textContent()) ?? '', /1 node changed/);
    await page.screenshot({ path: artifactPath('drift-1280.png') });
    // Undo both: the canvas matches the job again and every mark goes.
    await page.keyboard.press('Control+z');
    await page.keyboard.press('Control+z');
    await page.keyboard.press('Control+z');
    await page.getByTestId('drift').waitFor({ state: 'detached' });
    await page.getByTestId('live-toggle').click();
  });

  it('logs the task stderr and a restart with its cause; the filter narrows the list', async () => {
    await page.getByTestId('live-tab-logs').click();
    await page.getByTestId('log-entry').filter({ hasText: STDERR_MARK }).first().waitFor({ timeout: 30_000 });
    await page.getByTestId('ctl-kill').click();
    await page.locator('[data-testid="log-entry"][data-kind="restart"]').first().waitFor({ timeout: 30_000 });
    assert.match(
      (await page.locator('[data-testid="log-entry"][data-kind="restart"]').first().textContent()) ?? '',
      /restart 1: .*killed|died/,
    );
    await page.getByTestId('logs-filter').fill('restart');
    await page.waitForFunction(() =>
      Array.from(document.querySelectorAll('[data-testid="log-entry"]')).every((e) =>
        /restart/i.test(e.textContent ?? ''),
      ),
    );
    await page.getByTestId('logs-filter').fill('');
    await page.getByTestId('logs-kind-stderr').uncheck();
    assert.equal(await page.locator('[data-testid="log-entry"][data-kind="stderr"]').count(), 0);
    await page.getByTestId('logs-kind-stderr').check();
    await page.screenshot({ path: artifactPath('logs-1280.png') });
    await page.getByTestId('stop').click();
    await page.waitForFunction(
      () =>
        ['stopped', 'finished', 'canceled'].includes(
          document.querySelector('[data-testid="job-status"]')?.getAttribute('data-status') ?? '',
        ),
      null,
      { timeout: 30_000 },
    );
  });

  it('a finished job shows no failed checkpoint; a bad record is logged with its file and line', async () => {
    page.once('dialog', (d) => {
      void d.accept();
    });
    await openFile(page, 'bad-lines.weir.json', FILE_JOB as never);
    await page.getByTestId('run').click();
    await waitStatus(page, 'finished', 60_000);
    await page.getByTestId('live-tab-logs').click();
    const bad = page.locator('[data-testid="log-entry"][data-kind="bad-record"]').first();
    await bad.waitFor({ timeout: 20_000 });
    assert.match((await bad.textContent()) ?? '', /readings\.jsonl.*3/);
    await page.getByTestId('live-tab-checkpoints').click();
    assert.equal(
      await page.locator('[data-testid^="cp-row-"][data-status="failed"]').count(),
      0,
      'no checkpoint shown as failed',
    );
    await page.getByTestId('live-tab-overview').click();
    assert.equal(await page.getByTestId('cp-count-failed').getAttribute('data-count'), '0');
    assert.deepEqual(pageErrors, []);
  });
});

/** Resolves once the element's box is the same in two animation frames running (a fit or pan ended). */
async function waitUntilStill(page: Page, target: Locator): Promise<void> {
  let last = '';
  for (let frames = 0; frames < 600; frames++) {
    const box = JSON.stringify(await target.boundingBox());
    if (box === last && box !== 'null') return;
    last = box;
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  }
  throw new Error('the element kept moving for 600 frame pairs');
}
