/**
 * The cost of one live metrics update in the designer: a 50-operator job (a rate-limited generator,
 * 48 chained filters, a file sink) runs under `weir serve`; Chromium shows it with the live panel.
 * An init script wraps the page's WebSocket `onmessage`, and for each message carrying a `metrics`
 * event it takes (a) the handler plus the React render and commit it triggers (zustand's
 * useSyncExternalStore renders synchronously, in the microtasks before the next task, which a
 * MessageChannel message marks) and (b) the time to the next animation frame. Measured with the
 * Overview tab, then with the Metrics tab (one row per operator) open.
 * `WEIR_BENCH_UI_PROFILE=<dir>` also writes a page CPU profile per tab there (.cpuprofile).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import type { JobDocument, JobEdge, JobNode } from '../engine/graph/types.ts';

declare global {
  interface Window {
    __metricsCost?: Array<{ render: number; frame: number }>;
    /** Messages seen and the newest one's head, for the error when no metrics update arrives. */
    __wsSeen?: { count: number; last: string };
  }
}

export interface MetricsUpdateCost {
  operators: number;
  /** Per tab: medians and p95 over the updates seen, in ms. */
  tabs: Record<string, { updates: number; renderMs: number; renderP95Ms: number; frameMs: number }>;
}

export function fiftyOperatorJob(): JobDocument {
  const nodes: JobNode[] = [
    {
      id: 'gen',
      type: 'source.generator',
      name: 'gen',
      position: { x: 0, y: 0 },
      config: { seed: 3, rate: 500, keys: 20, eventTime: { field: 'ts', maxOutOfOrderness: '200ms' } },
    },
  ];
  const edges: JobEdge[] = [];
  let prev = 'gen';
  for (let i = 1; i <= 48; i++) {
    const id = `f${i}`;
    nodes.push({
      id,
      type: 'filter',
      name: `filter ${i}`,
      position: { x: (i % 8) * 220, y: Math.floor(i / 8) * 120 },
      config: { where: `seq > ${-i}` },
    });
    edges.push({ from: prev, to: id });
    prev = id;
  }
  nodes.push({
    id: 'out',
    type: 'sink.file',
    name: 'out',
    position: { x: 0, y: 840 },
    config: { path: 'out/fifty', format: 'jsonl' },
  });
  edges.push({ from: prev, to: 'out' });
  return {
    format: 'weir.job/v1',
    name: 'fifty-operators',
    settings: { parallelism: 1, stateBackend: 'memory', checkpointing: { interval: '1s', dir: 'checkpoints' } },
    nodes,
    edges,
  };
}

// A string, not a function: tsx wraps named classes and functions in a `__name` helper that the
// page does not have, so a serialized function would throw there.
const TIMING_SCRIPT = `(() => {
  const Orig = window.WebSocket;
  const costs = [];
  const seen = { count: 0, last: '' };
  window.__metricsCost = costs;
  window.__wsSeen = seen;
  const setter = Object.getOwnPropertyDescriptor(Orig.prototype, 'onmessage').set;
  window.WebSocket = class extends Orig {
    set onmessage(h) {
      setter.call(this, h ? (ev) => {
        const metrics = typeof ev.data === 'string' && ev.data.includes('"type":"metrics"');
        seen.count++;
        seen.last = String(ev.data).slice(0, 200);
        const t0 = performance.now();
        h.call(this, ev);
        if (!metrics) return;
        const ch = new MessageChannel();
        ch.port1.onmessage = () => {
          const render = performance.now() - t0;
          requestAnimationFrame(() => costs.push({ render, frame: performance.now() - t0 }));
        };
        ch.port2.postMessage(0);
      } : null);
    }
  };
})();`;

export async function measureMetricsUpdate(
  browser: Browser,
  served: { url: string; workspace: string },
  seconds: number,
): Promise<MetricsUpdateCost> {
  const job = fiftyOperatorJob();
  writeFileSync(join(served.workspace, 'fifty.weir.json'), JSON.stringify(job));
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.addInitScript({ content: TIMING_SCRIPT });
  const page = await context.newPage();
  await page.goto(served.url);
  await page.getByTestId('app-ready').waitFor({ timeout: 30_000 });
  page.on('dialog', (d) => void d.accept());
  await page.getByTestId('doc-open').click();
  await page.getByTestId('file-fifty.weir.json').click();
  await page.waitForFunction((n) => document.querySelectorAll('.react-flow__node').length === n, job.nodes.length, {
    timeout: 30_000,
  });
  await page.getByTestId('run').click();
  await page.waitForFunction(
    () => document.querySelector('[data-testid="job-status"]')?.getAttribute('data-status') === 'running',
    null,
    { timeout: 60_000 },
  );
  const tabs: MetricsUpdateCost['tabs'] = {};
  for (const tab of ['overview', 'metrics']) {
    await page.getByTestId(`live-tab-${tab}`).click();
    await page.waitForTimeout(500);
    await page.evaluate(() => window.__metricsCost!.splice(0));
    const profileDir = process.env.WEIR_BENCH_UI_PROFILE;
    const cdp = profileDir ? await page.context().newCDPSession(page) : null;
    if (cdp) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.start');
    }
    await page.waitForTimeout(seconds * 1000);
    if (cdp && profileDir) {
      const { profile } = await cdp.send('Profiler.stop');
      writeFileSync(join(profileDir, `metrics-${tab}.cpuprofile`), JSON.stringify(profile));
      await cdp.detach();
    }
    const got = await page.evaluate(() => window.__metricsCost!.splice(0));
    if (got.length === 0) {
      const seen = await page.evaluate(() => window.__wsSeen);
      throw new Error(`no metrics update reached the page (${tab} tab): ${JSON.stringify(seen)}`);
    }
    const q = (xs: number[], p: number) =>
      [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];
    const render = got.map((c) => c.render);
    tabs[tab] = {
      updates: got.length,
      renderMs: q(render, 0.5),
      renderP95Ms: q(render, 0.95),
      frameMs: q(
        got.map((c) => c.frame),
        0.5,
      ),
    };
  }
  await page.getByTestId('stop').click();
  await page.waitForTimeout(500);
  await page.context().close();
  return { operators: job.nodes.length, tabs };
}
