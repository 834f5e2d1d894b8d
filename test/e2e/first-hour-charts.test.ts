/**
 * Issue 26, point 6: the Metrics charts of a short, finished run: the x axis spans the run (seconds,
 * not years), no two value ticks read the same (`1/s, 1/s, 0/s` before), and each operator's line
 * wears its node's colour on the canvas. At 1280 px the toolbar still shows the job's whole name
 * beside the run's status and uptime.
 */
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { artifactPath, chromiumOrSkip } from './support/serve.ts';
import { servedApp } from './support/app.ts';
import { waitStatus } from './live-support.ts';

const skip = chromiumOrSkip();
const CHARTS = ['chart-throughput', 'chart-lag', 'chart-backpressure', 'chart-cp-duration', 'chart-cp-size'];

/**
 * A chart out of view is not redrawn (TimeChart.tsx): scroll it into view and wait until it has
 * drawn every point it holds, so its drawn x span and ticks describe the run's whole data.
 */
async function drawnInView(page: Page, id: string): Promise<void> {
  await page.getByTestId(id).scrollIntoViewIfNeeded();
  await page.waitForFunction((t) => {
    const f = document.querySelector<HTMLElement>(`[data-testid="${t}"]`);
    return !!f?.dataset.xSpan && f.dataset.drawnPoints === f.dataset.points;
  }, id);
}

describe('the Metrics charts of a short, finished run', { skip }, () => {
  const app = servedApp();
  let page: Page;
  let wall = 0;

  before(async () => {
    page = app.page;
    await page.getByTestId('examples').click();
    await page.getByTestId('example-orders-per-user').click();
    await page.getByTestId('job-name').filter({ hasText: 'orders-per-user' }).waitFor();
    const t0 = Date.now();
    await page.getByTestId('run').click();
    await waitStatus(page, 'finished');
    wall = (Date.now() - t0) / 1000;
    await page.getByTestId('live-tab-metrics').click();
    await page.getByTestId('chart-throughput').waitFor();
  });

  it("the toolbar shows the job's whole name beside the finished run's status and uptime", async () => {
    await page.getByTestId('uptime').waitFor();
    const name = page.getByTestId('job-name');
    // 1440 and 1600 too: the toolbar tightened only up to 1400 px, and at 1440 a run's status cut the name.
    for (const width of [1280, 1440, 1600]) {
      await page.setViewportSize({ width, height: 800 });
      const fits = await name.evaluate((el) => el.scrollWidth <= el.clientWidth);
      assert.ok(
        fits,
        `at ${width} px the name is cut: ${await name.evaluate((el) => `${el.scrollWidth} > ${el.clientWidth}`)}`,
      );
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('the x axis spans the run, in seconds', async () => {
    for (const id of CHARTS) {
      const chart = page.getByTestId(id);
      await drawnInView(page, id);
      const span = Number(await chart.getAttribute('data-x-span'));
      assert.ok(span >= 1 && span <= wall + 1, `${id}: the x axis spans ${span} s, the run took ${wall} s to finish`);
    }
    assert.ok(Number(await page.getByTestId('chart-throughput').getAttribute('data-points')) >= 1, 'guard: samples');
  });

  it('no two value ticks of a chart read the same', async () => {
    for (const id of CHARTS) {
      await drawnInView(page, id);
      const ticks = ((await page.getByTestId(id).getAttribute('data-y-ticks')) ?? '').split('|');
      assert.ok(ticks.length >= 2, `${id}: ticks ${ticks.join(', ')}`);
      assert.equal(new Set(ticks).size, ticks.length, `${id}: ${ticks.join(', ')}`);
    }
  });

  it("each operator's line has its node's colour on the canvas", async () => {
    const onCanvas = await page
      .locator('.wnode')
      .evaluateAll((els) =>
        Object.fromEntries(
          els.map((e) => [e.querySelector('.wnode__name')?.textContent ?? '', getComputedStyle(e).borderLeftColor]),
        ),
      );
    const legend = await page
      .getByTestId('chart-throughput')
      .locator('.u-series')
      .evaluateAll((els) =>
        els.flatMap((e) => {
          const marker = e.querySelector<HTMLElement>('.u-marker');
          const label = e.querySelector('.u-label')?.textContent ?? '';
          return marker && label && label !== 'Time' ? [[label, getComputedStyle(marker).borderColor]] : [];
        }),
      );
    assert.equal(legend.length, 4, `guard: one series per operator: ${JSON.stringify(legend)}`);
    for (const [label, color] of legend) assert.equal(color, onCanvas[label], `${label}: chart ${color} vs node`);
    assert.equal(new Set(legend.map(([, c]) => c)).size, legend.length, 'distinct colours');
    await page.getByTestId('chart-throughput').evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: artifactPath('first-hour-metrics-finished-1280.png') });
  });
});
