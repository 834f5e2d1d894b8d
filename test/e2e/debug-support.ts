/**
 * Support for the debugging e2e tests (issue 26, "Debugging beyond the anchors"): a served app in
 * Chromium opened on a bundled example, small jobs with late, bad and failing records written
 * into its workspace, and the Preview gesture timed from click to rows shown.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchApp, type OpenedApp } from './support/app.ts';
import type { openFile } from './live-support.ts';

type Doc = NonNullable<Parameters<typeof openFile>[2]>;

export type DebugApp = OpenedApp;

/**
 * `weir serve` (with `--example NAME` when given, the example open) in Chromium at 1440x900;
 * `bypassCSP` lets a test inject axe-core.
 */
export function openApp(example?: string, opts: { bypassCSP?: boolean } = {}): Promise<DebugApp> {
  return launchApp({ example, viewport: { width: 1440, height: 900 }, ...opts });
}

/**
 * Clicks Preview and waits until the rows are on the canvas and in the Preview tab; returns the
 * milliseconds from the click to the frame that shows this preview's rows, measured in the page.
 */
export async function previewAndTime(page: Page, badgeNode: string): Promise<number> {
  // A string, not a function: tsx names inner functions with a helper the page does not have.
  const ms = await page.evaluate(`new Promise((resolve) => {
    const seq = () => Number(document.querySelector('[data-testid="preview-tab"]')?.getAttribute('data-seq') ?? 0);
    const before = seq();
    const start = performance.now();
    const done = () =>
      seq() > before &&
      document.querySelector('[data-testid="pv-badge-${badgeNode}"]') &&
      document.querySelector('[data-testid="preview-summary"]');
    document.querySelector('[data-testid="preview"]').click();
    (function tick() {
      if (done()) resolve(performance.now() - start);
      else requestAnimationFrame(tick);
    })();
  })`);
  return Math.round(ms as number);
}

/** A file source with a bad line and a late record into a window whose late port is wired. */
export const LATE_BAD_JOB: Doc = {
  format: 'weir.job/v1',
  name: 'debug-late-bad',
  settings: { parallelism: 1 },
  nodes: [
    {
      id: 'src',
      type: 'source.file',
      name: 'Orders',
      position: { x: 0, y: 40 },
      config: {
        path: 'debug-orders.jsonl',
        format: 'jsonl',
        onBadRecord: 'skip',
        eventTime: { field: 'ts', maxOutOfOrderness: '0s' },
      },
    },
    {
      id: 'win',
      type: 'window',
      name: 'Per user 5s',
      position: { x: 300, y: 40 },
      config: { keyBy: 'user', window: { kind: 'tumbling', size: '5s' }, aggregates: 'COUNT(*) AS n' },
    },
    {
      id: 'ok',
      type: 'sink.file',
      name: 'Counts',
      position: { x: 600, y: -40 },
      config: { path: 'out/ok', format: 'jsonl' },
    },
    {
      id: 'late',
      type: 'sink.file',
      name: 'Late',
      position: { x: 600, y: 140 },
      config: { path: 'out/late', format: 'jsonl' },
    },
  ],
  edges: [
    { from: 'src', to: 'win' },
    { from: 'win', to: 'ok' },
    { from: 'win', fromPort: 'late', to: 'late' },
  ],
};

/** A map whose CAST fails on the sample's first value: the preview fails, naming the node. */
export const FAILING_JOB: Doc = {
  format: 'weir.job/v1',
  name: 'debug-failing',
  settings: { parallelism: 1 },
  nodes: [
    {
      id: 'src',
      type: 'source.file',
      name: 'Orders',
      position: { x: 0, y: 40 },
      config: { path: 'debug-orders.jsonl', format: 'jsonl', onBadRecord: 'skip' },
    },
    {
      id: 'num',
      type: 'map',
      name: 'User as number',
      position: { x: 300, y: 40 },
      config: { select: 'CAST(user AS INT) AS u' },
    },
    { id: 'peek', type: 'sink.preview', name: 'Peek', position: { x: 600, y: 40 }, config: {} },
  ],
  edges: [
    { from: 'src', to: 'num' },
    { from: 'num', to: 'peek' },
  ],
};

export function writeDebugJobs(workspace: string): void {
  writeFileSync(
    join(workspace, 'debug-orders.jsonl'),
    [
      '{"user":"ann","amount":5,"ts":1000}',
      '{"user":"bea","amount":7,"ts":20000}',
      'not json',
      '{"user":"ann","amount":3,"ts":2000}',
      '',
    ].join('\n'),
  );
  writeFileSync(join(workspace, 'debug-late-bad.weir.json'), JSON.stringify(LATE_BAD_JOB, null, 2));
  writeFileSync(join(workspace, 'debug-failing.weir.json'), JSON.stringify(FAILING_JOB, null, 2));
}
