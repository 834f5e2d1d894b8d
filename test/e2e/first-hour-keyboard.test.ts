/**
 * Issue 26, point 6: focus after adding and connecting from the keyboard. After a quick add the new
 * node has the focus, after a connection (keyboard or mouse) the node connected to (not `<body>`,
 * from where Tab walked 31 stops back); and C offers new nodes too: picking one adds it right of the
 * selected node, where no node is, connected to it.
 */
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { artifactPath, chromiumOrSkip } from './support/serve.ts';
import { openWorkspaceFile, servedApp } from './support/app.ts';
import { dragPort } from './designer-helpers.ts';

const skip = chromiumOrSkip();

const PAIR = {
  format: 'weir.job/v1',
  name: 'pair',
  nodes: [
    { id: 'gen', type: 'source.generator', position: { x: 0, y: 0 }, config: { count: 10 } },
    { id: 'f1', type: 'filter', position: { x: 280, y: 0 }, config: { where: 'seq > 1' } },
    // Where C's new node would go first (a column right of f1): it must move down past this one.
    { id: 'peek', type: 'sink.preview', position: { x: 560, y: 0 }, config: {} },
  ],
  edges: [{ from: 'gen', to: 'f1' }],
};

describe('focus after adding and connecting from the keyboard', { skip }, () => {
  const app = servedApp({ files: { 'pair.weir.json': PAIR } });
  let page: Page;
  before(async () => {
    page = app.page;
    await openWorkspaceFile(page, 'pair.weir.json', 'pair');
  });

  const ids = () => page.locator('.react-flow__node').evaluateAll((els) => els.map((e) => e.getAttribute('data-id')));
  const focused = () =>
    page
      .waitForFunction(() => document.activeElement?.classList.contains('react-flow__node'))
      .then(() => page.evaluate(() => document.activeElement?.getAttribute('data-id') ?? null));
  const edge = (id: string) => page.locator(`.react-flow__edge[data-id="${id}"]`).waitFor({ state: 'attached' });
  async function added(before: Array<string | null>): Promise<string> {
    await page.waitForFunction((n) => document.querySelectorAll('.react-flow__node').length === n, before.length + 1);
    const id = (await ids()).find((i) => !before.includes(i));
    assert.ok(id);
    return id;
  }

  it('a quick add leaves the focus on the new node', async () => {
    const before = await ids();
    await page.locator('.react-flow__pane').click({ position: { x: 40, y: 40 } });
    await page.keyboard.press('a');
    await page.getByTestId('quick-add-input').fill('map');
    await page.keyboard.press('Enter');
    const map = await added(before);
    assert.match(map, /^map/);
    assert.equal(await focused(), map);
  });

  it('connecting from the keyboard leaves the focus on the node connected to', async () => {
    const map = (await ids()).find((i) => i?.startsWith('map'))!;
    await page.locator('.react-flow__node[data-id="f1"]').focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('c');
    await page.getByTestId('connect-picker').waitFor();
    // Typing goes where the focus is: into the picker's input, never the canvas's shortcuts.
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'connect-picker-input');
    await page.keyboard.type(map);
    await page.keyboard.press('Enter');
    await edge(`f1.out->${map}`);
    assert.equal(await focused(), map);
  });

  it('C then a new type adds that node right of the selected one, connected, focused, on free ground', async () => {
    const map = (await ids()).find((i) => i?.startsWith('map'))!;
    await page.locator(`.react-flow__node[data-id="${map}"]`).click();
    await page
      .getByTestId('node-form')
      .and(page.locator(`[data-node-id="${map}"]`))
      .waitFor();
    await page.locator(`.react-flow__node[data-id="${map}"]`).focus();
    const before = await ids();
    await page.keyboard.press('c');
    await page.getByTestId('connect-picker').waitFor();
    // Typing goes where the focus is: into the picker's input, never the canvas's shortcuts.
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'connect-picker-input');
    await page.keyboard.type('file sink');
    await page.getByTestId('connect-new-sink.file').waitFor();
    await page.screenshot({ path: artifactPath('first-hour-connect-new-1280.png') });
    await page.keyboard.press('Enter');
    const sink = await added(before);
    await edge(`${map}.out->${sink}`);
    assert.equal(await focused(), sink);
    const boxes = await page
      .locator('.react-flow__node')
      .evaluateAll((els) => els.map((e) => ({ id: e.getAttribute('data-id'), r: e.getBoundingClientRect().toJSON() })));
    const mine = boxes.find((b) => b.id === sink)!.r;
    const src = boxes.find((b) => b.id === map)!.r;
    assert.ok(mine.left > src.right, 'right of the node it connects from');
    for (const b of boxes.filter((x) => x.id !== sink)) {
      const overlap = mine.left < b.r.right && b.r.left < mine.right && mine.top < b.r.bottom && b.r.top < mine.bottom;
      assert.ok(!overlap, `the new node overlaps ${b.id}: ${JSON.stringify([mine, b.r])}`);
    }
  });

  it('a connection drawn with the mouse leaves the focus on the node connected to', async () => {
    await page.locator('.react-flow__pane').click({ position: { x: 40, y: 40 } });
    await dragPort(page, 'handle-gen-out', 'handle-peek-in');
    await edge('gen.out->peek');
    assert.equal(await focused(), 'peek');
  });
});
