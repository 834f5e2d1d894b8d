/**
 * The inspector's one generic form in Chromium against a real `weir serve`: every node type
 * dropped from the palette shows a field for each of its descriptors (test id `f-<path>`), and the
 * special kinds behave: a window's kind switches its size/slide/gap fields (one undo step), topn's
 * optional window comes and goes, event time guesses the time column, upsert shows the key field.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { NODE_DEFINITIONS } from '../../engine/graph/node-types.ts';
import type { FieldConfig, FieldDescriptor } from '../../engine/nodes/fields.ts';
import {
  startServe,
  launchBrowser,
  openDesigner,
  artifact,
  chromiumSkip,
  pageErrors,
  type Served,
} from '../support/designer-support.ts';
import { dragFromPalette, nodeCount, waitFor, mod } from './designer-helpers.ts';

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

/** Drop a node of `type` and select it; returns its id (the first free one of its prefix). */
async function dropAndSelect(type: string, idPrefix: string): Promise<string> {
  const before = await nodeCount(page);
  await dragFromPalette(page, type, { x: 300, y: 220 });
  await waitFor(async () => (await nodeCount(page)) === before + 1, `a ${type} node`);
  const id = `${idPrefix}-1`;
  await page.getByTestId(`node-${id}`).click();
  await page.locator(`[data-testid="node-form"][data-node-id="${id}"]`).waitFor();
  return id;
}

async function deleteNode(id: string): Promise<void> {
  await page.getByTestId(`node-${id}`).click();
  await page.keyboard.press('Delete');
  await waitFor(async () => (await page.getByTestId(`node-${id}`).count()) === 0, `${id} deleted`);
}

/** The test ids a descriptor shown for a node's new config draws. */
function idsOf(f: FieldDescriptor): string[] {
  if (f.kind === 'note' || f.kind === 'inputColumns') return [];
  if (f.kind === 'testConnection' || f.kind === 'kafkaTest') return [f.testId];
  return [f.kind === 'window' ? `f-${f.path}.kind` : `f-${f.path}`];
}

const visible = (testId: string) => page.getByTestId(testId).isVisible();

test(
  'every node type from the palette shows a field for each of its descriptors',
  { skip, timeout: 120_000 },
  async () => {
    await page.getByTestId('canvas-empty').waitFor();
    for (const d of NODE_DEFINITIONS) {
      const id = await dropAndSelect(d.type, d.palette.idPrefix);
      const config = d.palette.newConfig() as FieldConfig;
      for (const f of d.fields as readonly FieldDescriptor[]) {
        if (f.when && !f.when(config)) continue;
        for (const testId of idsOf(f)) assert.ok(await visible(testId), `${d.type}: ${testId} shown`);
      }
      if (d.type === 'source.kafka') await page.screenshot({ path: artifact('forms-kafka-source-1280.png') });
      await deleteNode(id);
    }
    assert.deepEqual(pageErrors(page), []);
  },
);

test('a window switches its length fields with its kind, as one undo step', { skip, timeout: 60_000 }, async () => {
  const id = await dropAndSelect('window', 'window');
  assert.ok((await visible('f-window.size')) && !(await visible('f-window.gap')));
  await page.getByTestId('f-window.kind').selectOption('session');
  await page.getByTestId('f-window.gap').waitFor();
  assert.equal(await page.getByTestId('f-window.gap').inputValue(), '10', 'the session keeps the length');
  assert.equal(await page.getByTestId('f-window.size').count(), 0);
  await page.getByTestId(`node-${id}`).click();
  await page.keyboard.press(`${mod}+z`);
  await page.getByTestId('f-window.size').waitFor();
  assert.equal(await page.getByTestId('f-window.kind').inputValue(), 'tumbling');
  await deleteNode(id);
});

test(
  "topn's window is optional; event time guesses its column; upsert asks for a key",
  { skip, timeout: 60_000 },
  async () => {
    const topn = await dropAndSelect('topn', 'topn');
    assert.equal(await page.getByTestId('f-window.size').count(), 0, 'a running top N has no window');
    await page.getByTestId('f-window.kind').selectOption('sliding');
    await page.getByTestId('f-window.slide').waitFor();
    assert.match((await page.getByTestId('node-form').textContent()) ?? '', /Window size/);
    await page.screenshot({ path: artifact('forms-topn-1280.png') });
    await page.getByTestId('f-window.kind').selectOption('');
    await waitFor(async () => (await page.getByTestId('f-window.size').count()) === 0, 'the window fields to go');
    await deleteNode(topn);

    const generator = await dropAndSelect('source.generator', 'generator');
    await page.getByTestId('f-eventTime').check();
    assert.equal(await page.getByTestId('f-eventTime.field').inputValue(), 'ts', "the generator's time column");
    await deleteNode(generator);

    const sink = await dropAndSelect('sink.postgres', 'pg-sink');
    assert.equal(await page.getByTestId('f-key').count(), 0);
    await page.getByTestId('f-mode').selectOption('upsert');
    await page.getByTestId('f-key').fill('id');
    assert.ok(await page.getByTestId('pg-test').isEnabled(), 'url and table set: the connection can be tested');
    await page.screenshot({ path: artifact('forms-postgres-sink-1280.png') });
    await deleteNode(sink);
    assert.deepEqual(pageErrors(page), []);
  },
);
