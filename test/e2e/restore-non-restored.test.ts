/**
 * Issue 23: a restore whose checkpoint holds state of a node the job no longer has asks in the app
 * (Flink's allowNonRestoredState, the CLI's --allow-non-restored-state), Chromium against
 * `weir serve`: a file job with a keyed window runs to its end; the window is deleted on the
 * canvas; Resume latest opens a dialog naming the window. Cancel changes nothing (no run starts);
 * Restore anyway passes the allowance through the host API and the job runs from the checkpoint to
 * its end. Screenshot: test/artifacts/restore-non-restored.png.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { JobDocument } from '../../engine/graph/types.ts';
import {
  artifactPath,
  chromiumOrSkip,
  ensureRenderer,
  launchChromium,
  startServe,
  type ServeProcess,
} from './support/serve.ts';
import { waitStatus } from './live-support.ts';

const JOB: JobDocument = {
  format: 'weir.job/v1',
  name: 'restore-dropped',
  settings: {
    parallelism: 2,
    stateBackend: 'fs',
    checkpointing: { interval: '100ms', dir: 'checkpoints', retained: 3 },
    restart: { attempts: 0 },
  },
  nodes: [
    {
      id: 'src',
      type: 'source.file',
      name: 'Readings',
      position: { x: 0, y: 60 },
      config: { path: 'in', format: 'jsonl', eventTime: { field: 'ts' } },
    },
    {
      id: 'win',
      type: 'window',
      name: 'Per key, 1s',
      position: { x: 300, y: 0 },
      config: {
        keyBy: 'key',
        window: { kind: 'tumbling', size: '1s' },
        aggregates: 'COUNT(*) AS n, SUM(value) AS total',
      },
    },
    { id: 'raw', type: 'map', name: 'Raw', position: { x: 300, y: 140 }, config: { select: 'seq, key' } },
    {
      id: 'out',
      type: 'sink.file',
      name: 'Files',
      position: { x: 600, y: 60 },
      config: { path: 'out', format: 'jsonl' },
    },
  ],
  edges: [
    { from: 'src', to: 'win' },
    { from: 'win', to: 'out' },
    { from: 'src', to: 'raw' },
    { from: 'raw', to: 'out' },
  ],
};

function writeJob(workspace: string): void {
  mkdirSync(join(workspace, 'in'));
  for (const f of [0, 1]) {
    const lines: string[] = [];
    for (let i = 0; i < 20_000; i++) {
      const seq = f * 20_000 + i;
      lines.push(JSON.stringify({ seq, key: `k${seq % 17}`, value: seq % 100, ts: 1_700_000_000_000 + seq * 10 }));
    }
    writeFileSync(join(workspace, 'in', `part-${f}.jsonl`), `${lines.join('\n')}\n`);
  }
  writeFileSync(join(workspace, 'restore-dropped.weir.json'), `${JSON.stringify(JOB, null, 2)}\n`);
}

const skip = chromiumOrSkip();

describe('restore with state of a removed node', { skip }, () => {
  let serve: ServeProcess;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  before(async () => {
    ensureRenderer();
    serve = await startServe();
    writeJob(serve.workspace);
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    page = await context.newPage();
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    await page.goto(serve.url);
    await page.getByTestId('app-ready').waitFor({ timeout: 30_000 });
    await page.getByTestId('doc-open').click();
    await page.getByTestId('file-restore-dropped.weir.json').click();
    await page.getByTestId('job-name').filter({ hasText: JOB.name }).waitFor({ timeout: 20_000 });
    await page.waitForFunction(() => document.querySelectorAll('.react-flow__node').length === 4);
  });
  after(async () => {
    await browser?.close();
    await serve?.close();
  });

  const nodeCount = () => page.locator('.react-flow__node').count();

  it('runs the job to its end with checkpoints retained, then loses the window on the canvas', async () => {
    await page.getByTestId('run').click();
    await waitStatus(page, 'finished', 90_000);
    const retained = readdirSync(join(serve.workspace, 'checkpoints'), { recursive: true }).map(String);
    assert.ok(
      retained.some((p) => /chk-\d+$/.test(p)),
      `a checkpoint to restore from: ${retained.join(', ')}`,
    );
    await page.getByTestId('node-win').click();
    await page.keyboard.press('Delete');
    await page.waitForFunction(() => document.querySelectorAll('.react-flow__node').length === 3);
    assert.equal(await nodeCount(), 3);
  });

  it('Resume latest asks, naming the window; Cancel starts nothing', async () => {
    await page.getByTestId('ctl-resume').click();
    const dialog = page.getByTestId('non-restored-dialog');
    await dialog.waitFor({ timeout: 30_000 });
    const nodes = await page
      .getByTestId('non-restored-nodes')
      .locator('li')
      .evaluateAll((lis) => lis.map((li) => li.getAttribute('data-node')));
    assert.deepEqual(nodes, ['win']);
    assert.match(await dialog.innerText(), /Checkpoint \d+ holds state of a node this job no longer has/);
    await page.screenshot({ path: artifactPath('restore-non-restored.png') });
    await page.getByTestId('non-restored-cancel').click();
    await dialog.waitFor({ state: 'detached' });
    await page
      .getByTestId('notice')
      .filter({ hasText: 'Not restored: the checkpoint holds state of nodes this job no longer has' })
      .waitFor();
    assert.equal(await page.getByTestId('job-status').getAttribute('data-status'), 'idle');
  });

  it('Restore anyway drops that state and the job runs from the checkpoint to its end', async () => {
    await page.getByTestId('ctl-resume').click();
    await page.getByTestId('non-restored-dialog').waitFor({ timeout: 30_000 });
    await page.getByTestId('non-restored-confirm').click();
    await page.getByTestId('non-restored-dialog').waitFor({ state: 'detached' });
    await waitStatus(page, 'finished', 90_000);
    // The run said what it dropped, as the CLI does.
    await page.getByTestId('live-tab-logs').click();
    await page
      .getByText(/without the state of node\(s\) 'win'/)
      .first()
      .waitFor({ timeout: 30_000 });
    assert.deepEqual(pageErrors, []);
  });
});
