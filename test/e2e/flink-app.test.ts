/**
 * Run on Flink in the app (issue 24), Chromium against `weir serve`: the bundled bounded example
 * runs on Weir's Flink runner (a real Flink 1.20 MiniCluster) from the toolbar, and the live
 * panel's Flink tab shows Flink's job id, the vertices with their record counts and FINISHED; the
 * dialog's choices are kept by the host; the same job on a real Flink SQL Gateway links the Flink
 * web UI; an unreachable gateway is one clear line. Screenshots: test/artifacts/flink-*.png.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { buildRunner, flinkSkipReason, freePort, startGateway } from '../flink-runner/runner-support.ts';
import {
  artifactPath,
  chromiumOrSkip,
  ensureRenderer,
  launchChromium,
  startServe,
  type ServeProcess,
} from './support/serve.ts';

const skip = chromiumOrSkip() ?? flinkSkipReason();

describe('Run on Flink in the app', { skip }, () => {
  let serve: ServeProcess;
  let browser: Browser;
  let page: Page;
  let gateway: ChildProcess | undefined;
  let classpath = '';
  const pageErrors: string[] = [];

  before(async () => {
    ensureRenderer();
    classpath = buildRunner('1.20');
    serve = await startServe(['--example', 'orders-per-user']);
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    page = await context.newPage();
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    await page.goto(serve.url);
    await page.getByTestId('app-ready').waitFor({ timeout: 30_000 });
    await page.getByTestId('job-name').filter({ hasText: 'orders-per-user' }).waitFor({ timeout: 20_000 });
  });
  after(async () => {
    if (gateway && gateway.exitCode === null) gateway.kill('SIGKILL');
    await browser?.close();
    await serve?.close();
  });

  async function openDialog(): Promise<void> {
    await page.getByTestId('run-on-flink').click();
    await page.getByTestId('flink-dialog').waitFor();
  }

  async function waitEnded(): Promise<void> {
    await page.waitForFunction(
      () => document.querySelector('[data-testid="flink-state"]')?.getAttribute('data-phase') === 'ended',
      null,
      { timeout: 180_000 },
    );
  }

  it('runs the example on a local Flink MiniCluster: job id, vertices with records, FINISHED', async () => {
    await openDialog();
    await page.getByTestId('flink-target-local').check();
    await page.getByTestId('flink-version').selectOption('1.20');
    await page.getByTestId('flink-parallelism').fill('2');
    await page.screenshot({ path: artifactPath('flink-dialog.png') });
    await page.getByTestId('flink-run').click();
    // The live panel opens on its Flink tab while Flink starts.
    await page.getByTestId('live-body-flink').waitFor();
    await waitEnded();
    const state = page.getByTestId('flink-state');
    assert.equal(await state.getAttribute('data-state'), 'FINISHED', await page.getByTestId('flink-tab').innerText());
    assert.match((await page.getByTestId('flink-job-id').innerText()).trim(), /^[0-9a-f]{32}$/);
    assert.equal((await page.getByTestId('flink-target').innerText()).trim(), 'Flink 1.20 · local MiniCluster');
    const rows = page.getByTestId('flink-vertex');
    assert.ok((await rows.count()) >= 2, 'Flink reported the job graph');
    const counts = await rows.evaluateAll((trs) =>
      trs.map((tr) => ({
        name: tr.querySelector('td')?.textContent ?? '',
        in: Number(tr.getAttribute('data-records-in')),
        out: Number(tr.getAttribute('data-records-out')),
      })),
    );
    assert.ok(
      counts.some((c) => c.out > 0) && counts.some((c) => c.in > 0),
      `records in and out: ${JSON.stringify(counts)}`,
    );
    assert.equal(await page.getByTestId('flink-error').count(), 0);
    await page.screenshot({ path: artifactPath('flink-run-local.png') });
  });

  it('keeps the choices: the host writes them and the dialog reopens with them after a reload', async () => {
    const kept = JSON.parse(readFileSync(join(serve.workspace, '.weir-settings.json'), 'utf8')) as {
      flink: { target: string; flinkVersion: string; parallelism: number };
    };
    assert.deepEqual(
      { target: kept.flink.target, version: kept.flink.flinkVersion, p: kept.flink.parallelism },
      { target: 'local', version: '1.20', p: 2 },
    );
    await page.reload();
    await page.getByTestId('app-ready').waitFor({ timeout: 30_000 });
    await openDialog();
    await page.waitForFunction(
      () => document.querySelector<HTMLInputElement>('[data-testid="flink-parallelism"]')?.value === '2',
    );
    assert.equal(await page.getByTestId('flink-target-local').isChecked(), true);
  });

  it('says in one line when the gateway cannot be reached', async () => {
    const port = await freePort();
    await page.getByTestId('flink-target-gateway').check();
    await page.getByTestId('flink-gateway-url').fill('localhost:8083');
    // Not a URL: the dialog says so and does not run.
    assert.equal(await page.getByTestId('flink-run').isDisabled(), true);
    await page.getByTestId('flink-gateway-url').fill(`http://127.0.0.1:${port}`);
    await page.getByTestId('flink-run').click();
    const refusal = page.getByTestId('flink-refusal');
    await refusal.waitFor({ timeout: 30_000 });
    await page.screenshot({ path: artifactPath('flink-refusal.png') });
    assert.equal(
      (await refusal.innerText()).trim(),
      `cannot reach the SQL Gateway at http://127.0.0.1:${port} (ECONNREFUSED)`,
    );
  });

  it('runs on a Flink SQL Gateway and links its web UI', async () => {
    const started = startGateway(classpath, await freePort());
    gateway = started.child;
    const url = await started.url;
    await openDialog();
    await page.getByTestId('flink-target-gateway').check();
    await page.getByTestId('flink-gateway-url').fill(url);
    await page.getByTestId('flink-parallelism').fill('1');
    await page.getByTestId('flink-run').click();
    await waitEnded();
    assert.equal(await page.getByTestId('flink-state').getAttribute('data-state'), 'FINISHED');
    const jobId = (await page.getByTestId('flink-job-id').innerText()).trim();
    assert.match(jobId, /^[0-9a-f]{32}$/);
    const href = await page.getByTestId('flink-web-ui').getAttribute('href');
    assert.match(href ?? '', new RegExp(`^http://127\\.0\\.0\\.1:\\d+/#/job/completed/${jobId}$`));
    // The link answers: the cluster's REST API knows the job.
    const rest = (await (await fetch(`${new URL(href!).origin}/jobs/${jobId}`)).json()) as { state?: string };
    assert.equal(rest.state, 'FINISHED');
    assert.ok((await page.getByTestId('flink-vertex').count()) >= 2);
    await page.screenshot({ path: artifactPath('flink-run-gateway.png') });
    assert.deepEqual(pageErrors, []);
  });
});
