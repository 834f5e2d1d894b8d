/**
 * Groups and sticky notes on the canvas (issue 17), Chromium against `weir serve --example`:
 * a labelled frame around selected nodes that follows them, a note written and moved, both saved
 * in the job file, and the job still runs to the end (the engine ignores them). Screenshots at
 * 1280x800 and 1920x1080.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import {
  artifactPath,
  chromiumOrSkip,
  ensureRenderer,
  launchChromium,
  startServe,
  type ServeProcess,
} from './support/serve.ts';
import { waitStatus } from './live-support.ts';
import { viewportSettled } from './designer-helpers.ts';

const skip = chromiumOrSkip();

describe('groups and notes', { skip }, () => {
  let serve: ServeProcess;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  before(async () => {
    ensureRenderer();
    serve = await startServe(['--example', 'orders-per-user']);
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    await page.goto(serve.url);
    await page.getByTestId('app-ready').waitFor({ timeout: 30_000 });
    await page.getByTestId('job-name').filter({ hasText: 'orders-per-user' }).waitFor({ timeout: 20_000 });
    await page.waitForFunction(() => document.querySelectorAll('.react-flow__node-job').length === 4, null, {
      timeout: 20_000,
    });
    // The first test clicks nodes: not while the opened job is still being fitted.
    await viewportSettled(page);
  });
  after(async () => {
    await browser?.close();
    await serve?.close();
  });

  it('frames selected nodes in a labelled group that follows them', async () => {
    await page.getByTestId('node-orders').click();
    await page.getByTestId('node-big').click({ modifiers: ['Shift'] });
    await page.getByTestId('group').click();
    const group = page.getByTestId('group-group-1');
    await group.waitFor();
    assert.equal(await group.getAttribute('data-members'), 'orders,big');
    await page.getByTestId('group-label-group-1').fill('Clean orders');
    // The frame encloses both members.
    const frame = (await group.boundingBox())!;
    for (const id of ['node-orders', 'node-big']) {
      const b = (await page.getByTestId(id).boundingBox())!;
      assert.ok(
        b.x >= frame.x &&
          b.y >= frame.y &&
          b.x + b.width <= frame.x + frame.width &&
          b.y + b.height <= frame.y + frame.height,
        `${id} inside the frame`,
      );
    }
    // Moving a member moves the frame.
    const before = frame.y;
    await page.getByTestId('node-big').click();
    await page.keyboard.press('Shift+ArrowDown');
    await page.waitForFunction(
      (y) =>
        document.querySelector('[data-testid="group-group-1"]')!.getBoundingClientRect().height > 0 &&
        document.querySelector('[data-testid="group-group-1"]')!.getBoundingClientRect().bottom > y + 10,
      before + frame.height,
    );
  });

  it('adds a note, writes in it and moves it by its bar', async () => {
    await page.getByTestId('add-note').click();
    const text = page.getByTestId('note-text-note-1');
    await text.waitFor();
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'note-text-note-1');
    await page.keyboard.type('Amounts are in euro cents');
    const bar = page.locator('[data-testid="note-note-1"] .wnote__bar');
    const b = (await bar.boundingBox())!;
    await page.mouse.move(b.x + 30, b.y + b.height / 2);
    await page.mouse.down();
    await page.mouse.move(b.x + 80, b.y + 120, { steps: 6 });
    await page.mouse.up();
    const after = (await bar.boundingBox())!;
    assert.ok(after.y > b.y + 60, `the note moved down (${b.y} -> ${after.y})`);
    await page.locator('.react-flow__pane').click({ position: { x: 10, y: 10 } });
    await page.screenshot({ path: artifactPath('annotations-1280.png') });
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.getByTestId('zoom-fit').click();
    await page.screenshot({ path: artifactPath('annotations-1920.png') });
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('saves both in the job file; the job still runs to the end', async () => {
    await page.keyboard.press('Control+s');
    await page.getByTestId('dirty').waitFor({ state: 'detached' });
    const saved = JSON.parse(readFileSync(join(serve.workspace, 'orders-per-user', 'job.weir.json'), 'utf8'));
    assert.deepEqual(saved.groups, [{ id: 'group-1', label: 'Clean orders', nodes: ['orders', 'big'] }]);
    assert.equal(saved.notes[0].text, 'Amounts are in euro cents');
    await page.getByTestId('run').click();
    await waitStatus(page, 'finished', 90_000);
    // Still there after a reload.
    await page.reload();
    await page.getByTestId('group-group-1').waitFor({ timeout: 20_000 });
    assert.equal(await page.getByTestId('note-text-note-1').inputValue(), 'Amounts are in euro cents');
    assert.deepEqual(pageErrors, []);
  });
});
