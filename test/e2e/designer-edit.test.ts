/**
 * Editing in the designer (Chromium against `weir serve`): undo/redo of add, connect, delete and
 * config edit; a refused connection with its reason; a bad expression's inline error; copy/paste,
 * duplicate, quick-add, help; screenshots of an example and of the inspector.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
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
import {
  dragFromPalette,
  dragPort,
  nodeCount,
  edgeCount,
  waitFor,
  clickPane,
  mod,
  viewportSettled,
} from './designer-helpers.ts';

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

const undo = () => page.keyboard.press(`${mod}+z`);
const redo = () => page.keyboard.press(`${mod}+Shift+z`);
const whereValue = () => page.getByTestId('f-where').inputValue();

test('undo and redo of add, connect, delete and a config edit', { skip, timeout: 120_000 }, async () => {
  await dragFromPalette(page, 'source.generator', { x: 120, y: 160 });
  await dragFromPalette(page, 'filter', { x: 420, y: 160 });
  await waitFor(async () => (await nodeCount(page)) === 2, 'two nodes');

  // add
  await clickPane(page);
  await undo();
  await waitFor(async () => (await nodeCount(page)) === 1, 'undo of add');
  await redo();
  await waitFor(async () => (await nodeCount(page)) === 2, 'redo of add');

  // connect
  await dragPort(page, 'handle-generator-1-out', 'handle-filter-1-in');
  await waitFor(async () => (await edgeCount(page)) === 1, 'an edge');
  await undo();
  await waitFor(async () => (await edgeCount(page)) === 0, 'undo of connect');
  await redo();
  await waitFor(async () => (await edgeCount(page)) === 1, 'redo of connect');
  // An edge is selected by clicking it and deleted on its own.
  await page.locator('.react-flow__edge').first().click();
  await waitFor(async () => (await page.locator('.react-flow__edge.selected').count()) === 1, 'a selected edge');
  await page.getByTestId('edge-form').waitFor();
  await page.keyboard.press('Delete');
  await waitFor(
    async () => (await edgeCount(page)) === 0 && (await nodeCount(page)) === 2,
    'the edge deleted, nodes kept',
  );
  await undo();
  await waitFor(async () => (await edgeCount(page)) === 1, 'undo of the edge delete');

  // config edit: typing is one undo step per field
  await page.getByTestId('node-filter-1').click();
  await page.getByTestId('f-where').click();
  await page.keyboard.type('seq > 5');
  await page.getByTestId('node-filter-1').click();
  assert.equal(await whereValue(), 'seq > 5');
  await undo();
  await waitFor(async () => (await whereValue()) === '', 'undo of the config edit');
  assert.match((await page.getByTestId('summary-filter-1').textContent()) ?? '', /where \(empty\)/);
  await redo();
  await waitFor(async () => (await whereValue()) === 'seq > 5', 'redo of the config edit');
  // Undo pressed inside the field is the document's undo too.
  await page.getByTestId('f-where').click();
  await page.keyboard.press('End');
  await page.keyboard.type(" AND key = 'k1'");
  await undo();
  await waitFor(async () => (await whereValue()) === 'seq > 5', 'undo from inside the field');
  await redo();
  await waitFor(async () => (await whereValue()) === "seq > 5 AND key = 'k1'", 'redo from inside the field');
  await undo();

  // delete (with its edge), then undo brings both back
  await page.getByTestId('node-filter-1').click();
  await page.keyboard.press('Delete');
  await waitFor(async () => (await nodeCount(page)) === 1 && (await edgeCount(page)) === 0, 'delete');
  await undo();
  await waitFor(async () => (await nodeCount(page)) === 2 && (await edgeCount(page)) === 1, 'undo of delete');
  await redo();
  await waitFor(async () => (await nodeCount(page)) === 1, 'redo of delete');
  await undo();
  await waitFor(async () => (await nodeCount(page)) === 2, 'undo of delete again');
});

test('an invalid connection is refused with the reason shown', { skip, timeout: 60_000 }, async () => {
  await dragFromPalette(page, 'source.file', { x: 120, y: 380 });
  await waitFor(async () => (await nodeCount(page)) === 3, 'a file source');
  const before = await edgeCount(page);
  // filter-1 already has an input: a second one is refused while dragging, with the reason.
  await dragPort(page, 'handle-file-source-1-out', 'handle-filter-1-in', { release: false });
  const hint = page.getByTestId('connection-hint');
  await hint.waitFor();
  assert.match((await hint.textContent()) ?? '', /exactly one input; use a union/);
  await page.mouse.up();
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(await edgeCount(page), before, 'no edge was added');
});

test('a bad expression shows the parser error inline at its column', { skip, timeout: 60_000 }, async () => {
  await page.getByTestId('node-filter-1').click();
  const where = page.getByTestId('f-where');
  await where.fill('seq > 5 AND');
  const alert = page.getByTestId('node-form').getByRole('alert');
  await alert.waitFor();
  assert.match((await alert.textContent()) ?? '', /column \d+/);
  await page.getByTestId('f-where-error-mark').waitFor();
  await where.fill('seq >> 5');
  await waitFor(async () => /column 6/.test((await alert.textContent()) ?? ''), 'the error at column 6');
  assert.equal(await page.getByTestId('f-where-error-mark').textContent(), '>');
  await page.screenshot({ path: artifact('designer-expression-error.png') });
  // Completions offer upstream columns.
  await where.fill('');
  await where.type('se');
  await page.getByTestId('f-where-completions').waitFor();
  await page.keyboard.press('Tab');
  assert.equal(await where.inputValue(), 'seq');
  await where.fill('seq > 5');
  await waitFor(async () => (await alert.count()) === 0, 'the error to clear');
});

test('copy/paste, duplicate, select all, quick add and help', { skip, timeout: 60_000 }, async () => {
  const n0 = await nodeCount(page);
  await page.getByTestId('node-generator-1').click();
  await page.getByTestId('node-filter-1').click({ modifiers: ['Shift'] });
  await page.keyboard.press(`${mod}+c`);
  await page.keyboard.press(`${mod}+v`);
  await waitFor(async () => (await nodeCount(page)) === n0 + 2, 'two pasted nodes');
  const clip = await page.evaluate(() => navigator.clipboard.readText());
  assert.match(clip, /"weir.fragment\/v1"/);
  await page.keyboard.press(`${mod}+d`);
  await waitFor(async () => (await nodeCount(page)) === n0 + 4, 'two duplicated nodes');
  await page.keyboard.press(`${mod}+a`);
  await page.keyboard.press('Delete');
  await waitFor(async () => (await nodeCount(page)) === 0, 'select all + delete');
  await undo();
  await waitFor(async () => (await nodeCount(page)) === n0 + 4, 'undo');

  await page.getByTestId('canvas').dblclick({ position: { x: 240, y: 470 } });
  await page.getByTestId('quick-add-input').fill('wind');
  await page.keyboard.press('Enter');
  await waitFor(async () => (await page.getByTestId('node-window-1').count()) === 1, 'a window from quick add');

  // A connection dropped on empty canvas offers the nodes that take an input and connects the pick.
  const edgesBefore = await edgeCount(page);
  const late = (await page.getByTestId('handle-window-1-late').boundingBox())!;
  await page.mouse.move(late.x + late.width / 2, late.y + late.height / 2);
  await page.mouse.down();
  await page.mouse.move(late.x + 120, late.y + 60, { steps: 6 });
  await page.mouse.move(late.x + 200, late.y + 90, { steps: 6 });
  await page.mouse.up();
  await page.getByTestId('quick-add').waitFor();
  assert.doesNotMatch((await page.getByTestId('quick-add').textContent()) ?? '', /Generator/, 'sources take no input');
  await page.getByTestId('quick-add-input').fill('file sink');
  await page.keyboard.press('Enter');
  await waitFor(async () => (await edgeCount(page)) === edgesBefore + 1, 'the new node connected to late');
  assert.equal(await page.locator('.react-flow__edge.wedge--late').count(), 1);

  await clickPane(page);
  await page.keyboard.press('?');
  await page.getByTestId('help-overlay').waitFor();
  await page.screenshot({ path: artifact('designer-help.png') });
  assert.match((await page.getByTestId('help-overlay').textContent()) ?? '', /Auto-layout/);
  await page.keyboard.press('Escape');
  await waitFor(async () => (await page.getByTestId('help-overlay').count()) === 0, 'help closed');
});

test('an example opens, lays out and shows its inspector (screenshots)', { skip, timeout: 90_000 }, async () => {
  page.once('dialog', (d) => {
    void d.accept();
  }); // discard the unsaved edits above
  await page.getByTestId('examples').click();
  await page.getByTestId('example-orders-per-user').click();
  await waitFor(
    async () => (await page.getByTestId('job-name').textContent())?.includes('orders') ?? false,
    'the example',
  );
  assert.ok((await nodeCount(page)) >= 3);
  await page.keyboard.press('l');
  await viewportSettled(page);
  await page.screenshot({ path: artifact('designer-example.png') });
  const windowNode = page.locator('[data-node-type="window"]').first();
  await windowNode.click();
  await page.getByTestId('node-form').waitFor();
  await page.screenshot({ path: artifact('designer-inspector.png') });
  await clickPane(page);
  await page.getByTestId('s-stateBackend').selectOption('rocksdb');
  await page.screenshot({ path: artifact('designer-settings.png') });
  await page.getByTestId('export').click();
  await waitFor(
    async () => /CREATE TABLE/i.test(await page.getByTestId('export-text').inputValue()),
    'the Flink SQL export',
  );
  await page.getByTestId('export-json').check();
  await waitFor(
    async () => /"weir.job\/v1"/.test(await page.getByTestId('export-text').inputValue()),
    'the JSON export',
  );
  await page.keyboard.press('Escape');
  assert.deepEqual(pageErrors(page), []);
});
