/**
 * Live-panel e2e support: a long-running job written into the served workspace (a rate-limited,
 * unbounded generator through a filter and a keyed window into a file sink and a preview sink,
 * checkpoints every 500 ms, parallelism 2 so windows align two channels), opened in the designer.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { GeneratorSourceConfig, JobDocument, JobSettingsInput } from '../../engine/graph/types.ts';
import { viewportSettled } from './designer-helpers.ts';

type Doc = JobDocument & { settings: JobSettingsInput };

function liveJob(name: string, settings: Partial<JobSettingsInput>, gen: GeneratorSourceConfig): Doc {
  return {
    format: 'weir.job/v1',
    name,
    settings: {
      stateBackend: 'fs',
      checkpointing: { interval: '500ms', dir: 'checkpoints', retained: 3, incremental: true },
      memoryStateLimit: '5mb',
      parallelism: 2,
      restart: { attempts: 5, delay: '200ms' },
      ...settings,
    },
    nodes: [
      { id: 'gen', type: 'source.generator', name: 'Readings', position: { x: 0, y: 40 }, config: gen },
      { id: 'pos', type: 'filter', name: 'Positive', position: { x: 280, y: 40 }, config: { where: 'value > 0.05' } },
      {
        id: 'win',
        type: 'window',
        name: 'Per key, 1s',
        position: { x: 560, y: 40 },
        config: {
          keyBy: 'key',
          window: { kind: 'tumbling', size: '1s' },
          aggregates: 'COUNT(*) AS n, AVG(CAST(value AS DOUBLE)) AS avg_v',
        },
      },
      {
        id: 'out',
        type: 'sink.file',
        name: 'Files',
        position: { x: 840, y: -30 },
        config: { path: `out/${name}`, format: 'jsonl' },
      },
      { id: 'peek', type: 'sink.preview', name: 'Preview', position: { x: 840, y: 130 }, config: {} },
    ],
    edges: [
      { from: 'gen', to: 'pos' },
      { from: 'pos', to: 'win' },
      { from: 'win', to: 'out' },
      { from: 'win', to: 'peek' },
    ],
  };
}

const GEN: GeneratorSourceConfig = {
  seed: 7,
  rate: 300,
  keys: 40,
  step: 20,
  outOfOrderness: '300ms',
  eventTime: { field: 'ts', maxOutOfOrderness: '500ms' },
};

export const LIVE_JOB = liveJob('live-demo', {}, GEN);

export function writeLiveJob(workspace: string, file = 'live-demo.weir.json', job: Doc = LIVE_JOB): string {
  writeFileSync(join(workspace, file), `${JSON.stringify(job, null, 2)}\n`);
  return file;
}

/** The same job on the memory backend with a limit its window state exceeds, one restart allowed. */
export const LIMIT_JOB = liveJob(
  'live-limit',
  { stateBackend: 'memory', memoryStateLimit: '600b', restart: { attempts: 1, delay: '200ms' } },
  GEN,
);

/** An unthrottled generator: the window cannot keep up, so an output channel fills (back-pressure). */
export const FAST_JOB = liveJob('live-fast', {}, { ...GEN, rate: undefined, count: 5_000_000, keys: 5000 });

/** Two sources into a union: one busy, one nearly silent, so it turns idle after its idle timeout. */
export const IDLE_JOB: Doc = {
  format: 'weir.job/v1',
  name: 'live-idle',
  settings: { stateBackend: 'memory', checkpointing: { interval: '500ms' }, parallelism: 1 },
  nodes: [
    {
      id: 'busy',
      type: 'source.generator',
      name: 'Busy',
      position: { x: 0, y: 0 },
      config: {
        seed: 1,
        rate: 200,
        keys: 5,
        eventTime: { field: 'ts', maxOutOfOrderness: '100ms', idleTimeout: '1s' },
      },
    },
    {
      id: 'quiet',
      type: 'source.generator',
      name: 'Quiet',
      position: { x: 0, y: 160 },
      config: {
        seed: 2,
        rate: 0.1,
        keys: 5,
        eventTime: { field: 'ts', maxOutOfOrderness: '100ms', idleTimeout: '1s' },
      },
    },
    { id: 'both', type: 'union', name: 'Both', position: { x: 280, y: 80 }, config: {} },
    {
      id: 'win',
      type: 'window',
      name: 'Per key, 1s',
      position: { x: 560, y: 80 },
      config: { keyBy: 'key', window: { kind: 'tumbling', size: '1s' }, aggregates: 'COUNT(*) AS n' },
    },
    { id: 'peek', type: 'sink.preview', name: 'Preview', position: { x: 840, y: 80 }, config: {} },
  ],
  edges: [
    { from: 'busy', to: 'both' },
    { from: 'quiet', to: 'both' },
    { from: 'both', to: 'win' },
    { from: 'win', to: 'peek' },
  ],
};

export async function openFile(page: Page, file: string, job: Doc = LIVE_JOB): Promise<void> {
  await page.getByTestId('doc-open').click();
  await page.getByTestId(`file-${file}`).click();
  await page.getByTestId('job-name').filter({ hasText: job.name }).waitFor({ timeout: 20_000 });
  await page.waitForFunction((n) => document.querySelectorAll('.react-flow__node').length === n, job.nodes.length, {
    timeout: 20_000,
  });
  // A click must not land before the opened job's first fit moves its nodes.
  await viewportSettled(page);
}

export function attr(page: Page, testId: string, name: string): Promise<string | null> {
  return page.getByTestId(testId).getAttribute(name);
}

export async function num(page: Page, testId: string, name = 'data-count'): Promise<number> {
  return Number(await attr(page, testId, name));
}

/** Wait until a numeric data attribute of a test id satisfies `pred` (checked in the page). */
export async function waitAttr(
  page: Page,
  testId: string,
  name: string,
  min: number,
  timeout = 30_000,
): Promise<number> {
  await page.waitForFunction(
    ([id, n, m]) => {
      const v = document.querySelector(`[data-testid="${id}"]`)?.getAttribute(n);
      return v !== null && v !== undefined && v !== '' && Number(v) >= m;
    },
    [testId, name, min] as const,
    { timeout },
  );
  return num(page, testId, name);
}

export async function waitStatus(page: Page, status: string, timeout = 30_000): Promise<void> {
  await page.waitForFunction(
    (s) => document.querySelector('[data-testid="job-status"]')?.getAttribute('data-status') === s,
    status,
    { timeout },
  );
}

/**
 * Clicks Run; when the app asks about output an earlier run committed (the re-run dialog), answers
 * `answer` (default: delete it and start over, as a user re-running from scratch would).
 */
export async function clickRun(page: Page, answer: 'clear' | 'resume' | 'cancel' = 'clear'): Promise<void> {
  await page.getByTestId('run').click();
  await page.waitForFunction(
    () =>
      document.querySelector('[data-testid="rerun-dialog"]') !== null ||
      ['running', 'finished', 'failed', 'stopped'].includes(
        document.querySelector('[data-testid="job-status"]')?.getAttribute('data-status') ?? '',
      ),
    null,
    { timeout: 30_000 },
  );
  if ((await page.getByTestId('rerun-dialog').count()) > 0) await page.getByTestId(`rerun-${answer}`).click();
}
