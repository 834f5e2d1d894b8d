/**
 * The live panel against a real `weir serve` in Debian's Chromium: checkpoints every 500 ms with
 * the completed count rising, a checkpoint's detail, watermarks advancing on the nodes, metrics
 * ticks that re-render badges but no graph node, Kill task process with the restart counter rising
 * and the job continuing, a live sample of any edge (not only into a preview sink), stop with
 * savepoint and restore from it, and a run on each of the three
 * backends visibly in use (screenshots under test/artifacts/live-<backend>.png).
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
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
import {
  FAST_JOB,
  IDLE_JOB,
  LIMIT_JOB,
  attr,
  clickRun,
  num,
  openFile,
  waitAttr,
  waitStatus,
  writeLiveJob,
} from './live-support.ts';
import { countRenders, renders } from './support/render-counter.ts';

const skip = chromiumOrSkip();

describe('live panel', { skip }, () => {
  let serve: ServeProcess;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  before(async () => {
    ensureRenderer();
    serve = await startServe();
    browser = await launchChromium();
    const file = writeLiveJob(serve.workspace);
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await countRenders(context);
    page = await context.newPage();
    // Every run here starts over in the same folder: the app asks before clearing the output an
    // earlier run committed (issue 11, output_exists); accept, as a user starting over would.
    page.on('dialog', (d) => {
      void d.accept();
    });
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    await page.goto(serve.url);
    await page.getByTestId('app-ready').waitFor({ timeout: 30_000 });
    await openFile(page, file);
  });
  after(async () => {
    await browser?.close();
    await serve?.close();
  });

  async function runOn(backend: 'memory' | 'fs' | 'rocksdb'): Promise<void> {
    await page.getByTestId('live-backend').selectOption(backend);
    await clickRun(page);
    await waitStatus(page, 'running');
    assert.equal(await attr(page, 'backend-in-use', 'data-backend'), backend);
  }

  async function stopRun(): Promise<void> {
    await page.getByTestId('stop').click();
    await page.waitForFunction(
      () =>
        ['stopped', 'finished', 'canceled'].includes(
          document.querySelector('[data-testid="job-status"]')?.getAttribute('data-status') ?? '',
        ),
      null,
      { timeout: 30_000 },
    );
  }

  it('runs with checkpoints every 500 ms: the completed count rises, a checkpoint opens in detail', async () => {
    await runOn('memory');
    await page.getByTestId('live-tab-overview').click();
    const first = await waitAttr(page, 'cp-count-completed', 'data-count', 2);
    const later = await waitAttr(page, 'cp-count-completed', 'data-count', first + 2);
    assert.ok(later > first, `completed rose ${first} -> ${later}`);
    assert.equal(await page.getByTestId('config-backend').textContent(), 'memory (chosen for this run)');

    await page.getByTestId('live-tab-checkpoints').click();
    await page.getByTestId('cp-history').waitFor();
    const firstRow = page.locator('[data-testid^="cp-row-"][data-status="completed"]').first();
    const id = (await firstRow.getAttribute('data-testid'))!.slice('cp-row-'.length);
    // By its id: a checkpoint completing meanwhile would become "the first completed row".
    await page.getByTestId(`cp-row-${id}`).click();
    const detail = page.getByTestId('cp-detail');
    await detail.waitFor();
    assert.equal(await detail.getAttribute('data-id'), id);
    // Every operator acknowledged with its subtasks: expand the window to see both subtasks.
    for (const op of ['gen', 'pos', 'win', 'out', 'peek']) await page.getByTestId(`cp-op-${op}`).waitFor();
    await page.getByTestId('cp-op-win').click();
    await page.getByTestId('cp-sub-win-0').waitFor();
    await page.getByTestId('cp-sub-win-1').waitFor();
    await page.screenshot({ path: artifactPath('live-checkpoint-detail.png') });
    await page.getByTestId('cp-detail-close').click();
    assert.ok(Number(await page.getByTestId('cp-chart').getAttribute('data-points')) >= 2);
  });

  it('shows watermarks advancing on the nodes, rates on edges, and ticks re-render no graph node', async () => {
    const wm = page.getByTestId('live-win');
    await wm.waitFor();
    const w1 = Number(await wm.getAttribute('data-watermark'));
    const before = await renders(page);
    // Guard: the counter sees the graph nodes (they rendered when the job opened).
    assert.ok((before.JobNodeView ?? 0) > 0, `graph node renders counted: ${JSON.stringify(before)}`);
    await page.waitForFunction(
      (w) => Number(document.querySelector('[data-testid="live-win"]')?.getAttribute('data-watermark')) > w + 1000,
      w1,
      { timeout: 20_000 },
    );
    // Several more metrics ticks (the host sends about four a second): wait until the badges saw five.
    const badges = before.NodeLiveBadge ?? 0;
    await page.waitForFunction((n) => (window.__weirRenders?.NodeLiveBadge ?? 0) >= n + 5, badges, { timeout: 20_000 });
    const after = await renders(page);
    assert.ok(
      (after.NodeLiveBadge ?? 0) - (before.NodeLiveBadge ?? 0) >= 5,
      `badges re-rendered: ${JSON.stringify({ before, after })}`,
    );
    assert.equal(
      after.JobNodeView ?? 0,
      before.JobNodeView ?? 0,
      `graph nodes must not re-render on ticks: ${JSON.stringify({ before, after })}`,
    );
    const rate = Number(await page.getByTestId('edge-rate-gen.out->pos').getAttribute('data-rate'));
    assert.ok(rate > 50, `records/s on gen -> pos: ${rate}`);
    assert.match((await page.getByTestId('wm-win').textContent()) ?? '', /^\d\d:\d\d:\d\d\.\d{3}$/);

    await page.getByTestId('live-tab-watermarks').click();
    await page.getByTestId('wm-ch-win-0-1').waitFor();
    await page.getByTestId('wm-ch-win-1-0').waitFor();
    await page.screenshot({ path: artifactPath('live-watermarks.png') });
    await page.getByTestId('live-tab-state').click();
    assert.equal(await attr(page, 'state-backend', 'data-backend'), 'memory');
    await page.getByTestId('state-win-0').waitFor();
    await page.getByTestId('node-peek').click();
    await waitAttr(page, 'data-sample', 'data-count', 1);
    await page.screenshot({ path: artifactPath('live-data.png') });

    // Any edge, not only one into a preview sink: the runtime samples it while the tab shows it.
    // First the source's edge, by its rate label (which covers the edge's middle)...
    await page.getByTestId('edge-rate-gen.out->pos').click();
    await page.waitForFunction(
      () => {
        const el = document.querySelector('[data-testid="data-sample"]');
        return el?.getAttribute('data-target') === 'edge:gen.out' && Number(el.getAttribute('data-count')) >= 1;
      },
      null,
      { timeout: 20_000 },
    );
    // ...then the filter's output edge, by its rate label too: on a short edge the label covers
    // most of the line, so a click on the line itself lands on the label whenever a rate shows.
    await page.getByTestId('edge-rate-pos.out->win').click();
    await page.waitForFunction(
      () => {
        const el = document.querySelector('[data-testid="data-sample"]');
        return (
          el?.getAttribute('data-kind') === 'edge' &&
          el.getAttribute('data-target') === 'edge:pos.out' &&
          Number(el.getAttribute('data-count')) >= 5
        );
      },
      null,
      { timeout: 20_000 },
    );
    const heads = await page.locator('[data-testid="data-sample"] thead th').allTextContents();
    assert.deepEqual([...heads].sort(), ['key', 'seq', 'ts', 'value']);
    // The filter's output (chained with the source): every sampled record passed `value > 0.05`.
    const col = heads.indexOf('value') + 1;
    const values = (await page.locator(`[data-testid="data-sample"] tbody td:nth-child(${col})`).allTextContents()).map(
      Number,
    );
    assert.ok(values.length >= 5 && values.every((v) => v > 0.05), `sampled values ${values.join(', ')}`);
    assert.match((await page.getByTestId('data-sample').textContent()) ?? '', /Positive → Per key, 1s/);
    await page.screenshot({ path: artifactPath('live-edge-sample.png') });
    await page.getByTestId('live-tab-overview').click();
    await page.screenshot({ path: artifactPath('live-memory.png') });
  });

  it('Kill task process: the restart counter rises and the job continues from its checkpoint', async () => {
    await page.getByTestId('live-tab-overview').click();
    const completed = await num(page, 'cp-count-completed');
    await page.getByTestId('ctl-kill').click();
    await waitAttr(page, 'restart-count', 'data-count', 1);
    assert.equal(await attr(page, 'restarts', 'data-count'), '1');
    await waitStatus(page, 'running');
    await waitAttr(page, 'cp-count-restored', 'data-count', 1);
    assert.match((await page.getByTestId('latest-restore').textContent()) ?? '', /#\d+ · automatic restart/);
    await waitAttr(page, 'cp-count-completed', 'data-count', completed + 2);
    assert.match(
      (await page.getByTestId('live-recovered').textContent()) ?? '',
      /SIGKILL.*rewound to checkpoint #\d+/s,
    );
    await page.getByTestId('live-tab-checkpoints').click();
    await page.screenshot({ path: artifactPath('live-memory-recovered.png') });
  });

  it('stops with a savepoint and restores from it, chosen from the list', async () => {
    await page.getByTestId('ctl-stop-savepoint').click();
    await waitStatus(page, 'stopped');
    await page.getByTestId('ctl-restore').click();
    await page.getByTestId('restore-list').waitFor();
    const item = page.locator('[data-testid^="restore-item-savepoint-"]').first();
    await item.waitFor({ timeout: 10_000 });
    await page.screenshot({ path: artifactPath('live-restore-list.png') });
    const spId = Number((await item.getAttribute('data-testid'))!.split('-').pop());
    await item.click();
    await waitStatus(page, 'running');
    await page.getByTestId('live-tab-overview').click();
    await waitAttr(page, 'cp-count-completed', 'data-count', 1);
    // Checkpoint ids continue after the restored savepoint's id.
    const latest = (await page.getByTestId('latest-completed').textContent()) ?? '';
    const latestId = Number(/#(\d+)/.exec(latest)?.[1]);
    assert.ok(latestId > spId, `checkpoint ${latestId} after savepoint ${spId}`);
    assert.match((await page.getByTestId('latest-restore').textContent()) ?? '', /sp-/);
    await stopRun();
  });

  for (const backend of ['fs', 'rocksdb'] as const) {
    it(`runs on ${backend}, visibly in use`, async () => {
      await runOn(backend);
      await page.getByTestId('live-tab-overview').click();
      await waitAttr(page, 'cp-count-completed', 'data-count', 3);
      assert.match((await page.getByTestId('config-backend').textContent()) ?? '', new RegExp(`^${backend}`));
      await page.getByTestId('live-tab-state').click();
      assert.equal(await attr(page, 'state-backend', 'data-backend'), backend);
      if (backend === 'rocksdb') {
        // RocksDB reports its live data and files: both columns hold real numbers for the window.
        await page.waitForFunction(
          () =>
            /\d+(\.\d)? (B|KB|MB)/.test(
              document.querySelector('[data-testid="state-win-0"] td:nth-child(3)')?.textContent ?? '',
            ),
          null,
          { timeout: 15_000 },
        );
      }
      assert.equal(
        (await page.getByTestId('snapshot-kind').textContent())?.trim(),
        backend === 'rocksdb' ? 'INCREMENTAL checkpoints' : 'FULL checkpoints',
      );
      await page.waitForFunction(
        () => Number(document.querySelector('[data-testid="state-win-0"]')?.getAttribute('data-bytes')) > 0,
        null,
        { timeout: 15_000 },
      );
      await page.screenshot({ path: artifactPath(`live-${backend}.png`) });
      await stopRun();
      // fs and rocksdb keep their checkpoints in the job's folder.
      assert.ok(
        existsSync(join(serve.workspace, 'checkpoints')) &&
          readdirSync(join(serve.workspace, 'checkpoints')).length > 0,
      );
    });
  }

  it('a failed job shows its cause in words; the failed checkpoint keeps its reason', async () => {
    const file = writeLiveJob(serve.workspace, 'live-limit.weir.json', LIMIT_JOB);
    await openFile(page, file, LIMIT_JOB);
    await page.getByTestId('live-backend').selectOption('');
    await page.getByTestId('run').click();
    await waitStatus(page, 'failed', 45_000);
    await page.getByTestId('live-tab-overview').click();
    const cause = (await page.getByTestId('live-cause').textContent()) ?? '';
    assert.match(
      cause,
      /^The job failed: .*operator 'win' subtask \d: snapshot of .* exceeds the memory state backend's limit of 600 bytes/,
    );
    assert.match(cause, /gave up after 1 restart/);
    assert.ok((await num(page, 'cp-count-failed')) >= 1);
    assert.equal(await num(page, 'cp-count-in-progress'), 0, 'nothing stays in progress after the job ended');
    assert.match(
      (await page.getByTestId('latest-failed').textContent()) ?? '',
      /exceeds the memory state backend's limit/,
    );
    await page.getByTestId('live-tab-state').click();
    await page.screenshot({ path: artifactPath('live-memory-limit.png') });
    await page.getByTestId('live-tab-checkpoints').click();
    await page.locator('[data-testid^="cp-row-"][data-status="failed"]').first().click();
    assert.match((await page.getByTestId('cp-detail-failure').textContent()) ?? '', /memoryStateLimit/);
    await page.screenshot({ path: artifactPath('live-failure.png') });
  });

  it('marks back-pressure on the edge whose sender waits for a full channel', async () => {
    const file = writeLiveJob(serve.workspace, 'live-fast.weir.json', FAST_JOB);
    await openFile(page, file, FAST_JOB);
    await page.getByTestId('run').click();
    await waitStatus(page, 'running');
    await page.locator('.wedge-label.is-full').first().waitFor({ timeout: 20_000 });
    assert.match((await page.locator('.wedge-label.is-full').first().textContent()) ?? '', /back-pressure/);
    // Find the bottleneck: busy time per operator on the nodes, the busiest one marked.
    await page.getByTestId('busy-win').waitFor({ timeout: 20_000 });
    await page.locator('[data-bottleneck="true"]').first().waitFor({ timeout: 20_000 });
    assert.match(
      (await page.locator('[data-bottleneck="true"]').first().textContent()) ?? '',
      /^bottleneck · busy \d+%$/,
    );
    await page.getByTestId('live-tab-metrics').click();
    assert.match((await page.getByTestId('metrics-busy-win').textContent()) ?? '', /^\d+%/);
    await page.screenshot({ path: artifactPath('live-backpressure.png') });
    await stopRun();
  });

  it('marks an idle source and the input it leaves idle; the window still advances', async () => {
    const file = writeLiveJob(serve.workspace, 'live-idle.weir.json', IDLE_JOB);
    await openFile(page, file, IDLE_JOB);
    await page.getByTestId('run').click();
    await waitStatus(page, 'running');
    await page.getByTestId('idle-both').waitFor({ timeout: 20_000 });
    assert.match((await page.getByTestId('idle-both').textContent()) ?? '', /idle input ×1/);
    await page.getByTestId('idle-quiet').waitFor();
    assert.equal(await attr(page, 'live-busy', 'data-idle'), 'false');
    const w = Number(await attr(page, 'live-win', 'data-watermark'));
    await page.waitForFunction(
      (x) => Number(document.querySelector('[data-testid="live-win"]')?.getAttribute('data-watermark')) > x,
      w,
      { timeout: 15_000 },
    );
    await page.getByTestId('live-tab-watermarks').click();
    assert.equal(await attr(page, 'wm-ch-both-0-1', 'data-idle'), 'true');
    await page.screenshot({ path: artifactPath('live-idle.png') });
    await stopRun();
  });

  it('threw no uncaught errors in the page', () => {
    assert.deepEqual(pageErrors, []);
  });
});
