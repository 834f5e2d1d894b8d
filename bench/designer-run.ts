/**
 * The app's Run button to the first record shown: a generator -> map -> preview job open in
 * Chromium against `weir serve`; an in-page capture listener takes the click on Run, and each
 * animation frame looks at the generator's live badge on the canvas until it shows a record
 * count above 0. Also taken on the way: when the status bar first says `running`. Whole path:
 * the host call, planning, the task process fork, the first metrics update and its render.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import type { JobDocument } from '../engine/graph/types.ts';
import { openDesigner } from '../test/support/designer-support.ts';

export interface RunToRecord {
  /** Click -> the generator's badge shows a record count above 0. */
  firstRecordMs: number;
  /** Click -> the status says `running`. */
  runningMs: number;
}

declare global {
  interface Window {
    __runTiming?: { click?: number; running?: number; record?: number };
  }
}

function generatorJob(name: string): JobDocument {
  return {
    format: 'weir.job/v1',
    name,
    settings: { parallelism: 1, stateBackend: 'memory', checkpointing: { interval: '1s', dir: 'checkpoints' } },
    nodes: [
      { id: 'gen', type: 'source.generator', name: 'gen', position: { x: 0, y: 0 }, config: { seed: 1, rate: 1000 } },
      {
        id: 'twice',
        type: 'map',
        name: 'twice',
        position: { x: 280, y: 0 },
        config: { select: 'key, value * 2 AS v' },
      },
      { id: 'peek', type: 'sink.preview', name: 'peek', position: { x: 560, y: 0 }, config: {} },
    ],
    edges: [
      { from: 'gen', to: 'twice' },
      { from: 'twice', to: 'peek' },
    ],
  };
}

// A string, not a function: tsx wraps named functions in a `__name` helper the page does not have.
const WATCH = `(() => {
  const t = {};
  window.__runTiming = t;
  document.addEventListener('click', (e) => {
    if (e.target instanceof Element && e.target.closest('[data-testid="run"]')) t.click = performance.now();
  }, { capture: true });
  const tick = () => {
    if (t.click !== undefined) {
      const status = document.querySelector('[data-testid="job-status"]')?.getAttribute('data-status');
      if (t.running === undefined && status === 'running') t.running = performance.now();
      const m = /out\\s+([0-9.,]+[kKMB]?)/.exec(document.querySelector('[data-testid="io-gen"]')?.textContent ?? '');
      if (m && m[1] !== '0') { t.record = performance.now(); return; }
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})()`;

export async function measureRunToFirstRecord(
  browser: Browser,
  served: { url: string; workspace: string },
  round: number,
): Promise<RunToRecord> {
  const file = `run-${round}.weir.json`;
  const job = generatorJob(`run-to-record-${round}`);
  writeFileSync(join(served.workspace, file), JSON.stringify(job));
  const page = await openDesigner(browser, served.url);
  page.on('dialog', (d) => void d.accept());
  await page.getByTestId('doc-open').click();
  await page.getByTestId(`file-${file}`).click();
  await page.waitForFunction(() => document.querySelectorAll('.react-flow__node').length === 3, null, {
    timeout: 30_000,
  });
  await page.evaluate(WATCH);
  await page.getByTestId('run').click();
  await page.waitForFunction(() => window.__runTiming?.record !== undefined, null, { timeout: 60_000 });
  const t = (await page.evaluate(() => window.__runTiming))!;
  await page.getByTestId('stop').click();
  await page.waitForFunction(
    () =>
      ['stopped', 'finished', 'failed'].includes(
        document.querySelector('[data-testid="job-status"]')?.getAttribute('data-status') ?? '',
      ),
    null,
    { timeout: 60_000 },
  );
  await page.context().close();
  return { firstRecordMs: t.record! - t.click!, runningMs: (t.running ?? t.record!) - t.click! };
}
