/**
 * Dead letters on the canvas, in Chromium against a real `weir serve`: a file source shows its
 * `bad` port only once `onBadRecord` is `dead-letter`; the port connects to sinks by mouse and by
 * the keyboard connect picker (and refuses anything else); the sink lists the dead-letter columns;
 * a run on a file with one malformed line commits that line's dead letter in the sink's folder.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import {
  startServe,
  launchBrowser,
  openDesigner,
  artifact,
  chromiumSkip,
  pageErrors,
  type Served,
} from '../support/designer-support.ts';
import { dragFromPalette, dragPort, nodeCount, edgeCount, waitFor, clickPane, mod } from './designer-helpers.ts';
import { waitStatus } from './live-support.ts';

const skip = chromiumSkip();
let served: Served;
let browser: Browser;
let page: Page;

before(async () => {
  if (skip) return;
  served = await startServe();
  browser = await launchBrowser();
  page = await openDesigner(browser, served.url);
});
after(async () => {
  await browser?.close();
  await served?.close();
});

/** Committed jsonl records under a sink folder (in-progress files are hidden dot files). */
function committed(dir: string): Array<Record<string, unknown>> {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.jsonl') && !f.split('/').some((p) => p.startsWith('.')))
    .flatMap((f) => readFileSync(join(dir, f), 'utf8').split('\n'))
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

test(
  'a file source dead-letters a malformed line through its bad port into a file sink',
  { skip, timeout: 180_000 },
  async () => {
    // Line 3 is not JSON.
    writeFileSync(
      join(served.workspace, 'readings.jsonl'),
      '{"key":"a","value":1}\n{"key":"b","value":2}\n{"key":"c", value\n{"key":"d","value":4}\n',
    );
    await page.getByTestId('canvas-empty').waitFor();
    await dragFromPalette(page, 'source.file', { x: 140, y: 220 });
    await dragFromPalette(page, 'sink.file', { x: 480, y: 100 });
    await dragFromPalette(page, 'sink.file', { x: 480, y: 300 });
    await dragFromPalette(page, 'sink.preview', { x: 480, y: 480 });
    await dragFromPalette(page, 'filter', { x: 140, y: 480 });
    await waitFor(async () => (await nodeCount(page)) === 5, 'five nodes');
    assert.equal(await page.getByTestId('handle-file-source-1-bad').count(), 0, 'no bad port before dead-letter');

    await page.getByTestId('node-file-source-1').click();
    await page.getByTestId('f-path').fill('readings.jsonl');
    await page.getByTestId('f-onBadRecord').selectOption('dead-letter');
    await page.getByTestId('handle-file-source-1-bad').waitFor();
    assert.equal(await page.locator('[data-testid="handle-file-source-1-bad"] .whandle__label').textContent(), 'bad');

    // By mouse: records to the first sink, dead letters to the second.
    await dragPort(page, 'handle-file-source-1-out', 'handle-file-sink-1-in');
    await dragPort(page, 'handle-file-source-1-bad', 'handle-file-sink-2-in');
    await waitFor(async () => (await edgeCount(page)) === 2, 'two edges');
    const badEdge = page.locator('.react-flow__edge[data-id="file-source-1.bad->file-sink-2"]');
    assert.match((await badEdge.getAttribute('class')) ?? '', /wedge--bad/);

    // By keyboard: the picker offers `bad` to the preview sink and refuses the filter, with why.
    await page.locator('.react-flow__node[data-id="file-source-1"]').focus();
    await page.keyboard.press('c');
    await page.getByTestId('connect-picker').waitFor();
    assert.match(
      (await page.getByTestId('connect-to-filter-1-bad').getAttribute('class')) ?? '',
      /is-refused/,
      'a dead letter cannot go to a filter',
    );
    await page.keyboard.type('bad → preview');
    await page.keyboard.press('Enter');
    await waitFor(async () => (await edgeCount(page)) === 3, 'the keyboard edge');
    assert.equal(await page.locator('.react-flow__edge[data-id="file-source-1.bad->preview-1"]').count(), 1);

    // Dropped on empty canvas, a `bad` connection offers sinks only.
    const bad = (await page.getByTestId('handle-file-source-1-bad').boundingBox())!;
    await page.mouse.move(bad.x + bad.width / 2, bad.y + bad.height / 2);
    await page.mouse.down();
    await page.mouse.move(bad.x + 30, bad.y + 90, { steps: 6 });
    await page.mouse.move(bad.x + 60, bad.y + 150, { steps: 6 });
    await page.mouse.up();
    await page.getByTestId('quick-add').waitFor();
    const offered = (await page.getByTestId('quick-add').textContent()) ?? '';
    assert.match(offered, /Preview/);
    assert.doesNotMatch(offered, /Filter|Map|Window/, `only sinks: ${offered}`);
    await page.keyboard.press('Escape');
    await page.getByTestId('quick-add').waitFor({ state: 'detached' });

    // The dead-letter sink lists the columns it receives; its folder is its own.
    await page.getByTestId('node-file-sink-2').click();
    await page.getByTestId('sink-columns').waitFor();
    assert.equal(await page.getByTestId('sink-columns').getAttribute('data-columns'), 'file,line,reason,text');
    await page.getByTestId('f-path').fill('out/dead');
    await page.getByTestId('node-filter-1').click();
    await page.keyboard.press('Delete');
    await waitFor(async () => (await nodeCount(page)) === 4, 'the filter deleted');

    await clickPane(page);
    await page.keyboard.press(`${mod}+s`);
    await page.getByTestId('save-as-path').fill('dead-letters.weir.json');
    await page.getByTestId('save-as-confirm').click();
    await waitFor(async () => (await page.getByTestId('dirty').count()) === 0, 'the document saved');
    const saved = JSON.parse(readFileSync(join(served.workspace, 'dead-letters.weir.json'), 'utf8'));
    assert.equal(saved.nodes[0].config.onBadRecord, 'dead-letter');
    assert.deepEqual(
      saved.edges.filter((e: { fromPort?: string }) => e.fromPort === 'bad').map((e: { to: string }) => e.to),
      ['file-sink-2', 'preview-1'],
    );

    await page.getByTestId('run').click();
    await waitStatus(page, 'finished', 90_000);
    // The live label on a dead-letter edge counts dead letters, as a late edge counts late records.
    await waitFor(
      async () => (await page.getByTestId('edge-rate-file-source-1.bad->file-sink-2').textContent()) === 'bad 1',
      'the dead-letter count on the edge',
      10_000,
    );
    await page.screenshot({ path: artifact('dead-letters-1280.png') });
    await page.getByTestId('node-file-sink-2').click();
    await page.getByTestId('sink-columns').waitFor();
    await page.screenshot({ path: artifact('dead-letters-sink-1280.png') });

    const dead = committed(join(served.workspace, 'out', 'dead'));
    assert.equal(dead.length, 1, `one dead letter: ${JSON.stringify(dead)}`);
    assert.equal(dead[0].line, 3);
    assert.match(String(dead[0].file), /readings\.jsonl$/);
    assert.equal(dead[0].text, '{"key":"c", value');
    assert.equal(typeof dead[0].reason, 'string');
    const good = committed(join(served.workspace, 'out', 'output'));
    assert.deepEqual(good.map((r) => r.key).sort(), ['a', 'b', 'd']);
    assert.deepEqual(pageErrors(page), []);
  },
);
