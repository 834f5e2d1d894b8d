/**
 * Issue 26, trace a record: in a preview, a source row's Trace action shows the path the record
 * took on the canvas (nodes and edges on it highlighted, the rest dimmed) and, node by node, the
 * rows it contributed to; Escape or the button clears it.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { artifactPath, chromiumOrSkip } from './support/serve.ts';
import { openApp, previewAndTime, type DebugApp } from './debug-support.ts';

const skip = chromiumOrSkip();

/** The canvas node wrapper's opacity (a trace dims the nodes off the path). */
function opacity(app: DebugApp, nodeId: string): Promise<number> {
  return app.page.evaluate(
    (id) => Number(getComputedStyle(document.querySelector(`.react-flow__node[data-id="${id}"]`)!).opacity),
    nodeId,
  );
}

describe('trace a record', { skip }, () => {
  let app: DebugApp;

  before(async () => {
    app = await openApp('orders-per-user');
    await previewAndTime(app.page, 'orders');
    await app.page.getByTestId('preview-pick-orders').click();
  });
  after(async () => {
    await app?.close();
  });

  async function trace(index: number): Promise<string> {
    const { page } = app;
    await page.getByTestId(`trace-row-${index}`).click();
    await page.waitForFunction(
      (i) => {
        const p = document.querySelector('[data-testid="trace-panel"]');
        return p?.getAttribute('data-status') === 'done' && p.textContent?.includes(`record ${i} `);
      },
      index,
      { timeout: 20_000 },
    );
    return (await page.getByTestId('trace-panel').getAttribute('data-path')) ?? '';
  }

  it('follows a record through the filter and the window into what the sink would write', async () => {
    const { page } = app;
    // Record 1 is bob's 96.87 (examples/orders-per-user/data/orders.jsonl, line 2).
    assert.equal(await trace(1), 'orders,big,per_user,out');
    assert.match((await page.getByTestId('trace-panel').textContent()) ?? '', /user=bob, amount=96\.87/);
    const win = (await page.getByTestId('trace-node-per_user').textContent()) ?? '';
    assert.match(win, /1 row it contributed to/);
    assert.match(win, /user=bob, n=1, total=96\.87, top=96\.87/);
    assert.match((await page.getByTestId('trace-node-out').textContent()) ?? '', /would write .*user=bob/);
    for (const id of ['orders', 'big', 'per_user', 'out'])
      assert.equal(await page.getByTestId(`pv-badge-${id}`).getAttribute('data-traced'), 'true', id);
    assert.match((await page.getByTestId('trace-banner').textContent()) ?? '', /Tracing record 1 of Orders: 4 nodes/);
    await page.screenshot({ path: artifactPath('debug-trace.png') });
  });

  it('dims what a filtered-out record never reached, and Escape clears the trace', async () => {
    const { page } = app;
    // Record 0 is dave's 1.27: the filter (amount >= 10) drops it.
    assert.equal(await trace(0), 'orders');
    assert.match((await page.getByTestId('trace-panel').textContent()) ?? '', /changed no node's output/);
    assert.equal(await page.getByTestId('pv-badge-big').getAttribute('data-traced'), 'false');
    assert.ok((await opacity(app, 'big')) < 0.5, 'the filter is dimmed');
    assert.equal(await opacity(app, 'orders'), 1);
    await page.screenshot({ path: artifactPath('debug-trace-dropped.png') });

    await page.keyboard.press('Escape');
    await page.getByTestId('trace-panel').waitFor({ state: 'detached' });
    assert.equal(await page.getByTestId('trace-banner').count(), 0);
    assert.equal(await opacity(app, 'big'), 1);
    // The button clears it too.
    await trace(1);
    await page.getByTestId('trace-banner-clear').click();
    await page.getByTestId('trace-panel').waitFor({ state: 'detached' });
    assert.deepEqual(app.pageErrors, []);
  });
});
