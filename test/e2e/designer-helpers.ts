/** Page gestures for the designer tests: palette drags, port connections, counts. */
import type { Page } from 'playwright-core';

export async function dragFromPalette(page: Page, type: string, at: { x: number; y: number }): Promise<void> {
  await page.dragAndDrop(`[data-testid="palette-${type}"]`, '[data-testid="canvas"]', { targetPosition: at });
}

/** Drag with the mouse from one port to another, the way a person connects nodes. */
export async function dragPort(
  page: Page,
  fromTestId: string,
  toTestId: string,
  opts: { release?: boolean } = {},
): Promise<void> {
  const a = await page.getByTestId(fromTestId).boundingBox();
  const b = await page.getByTestId(toTestId).boundingBox();
  if (!a || !b) throw new Error(`port not visible: ${!a ? fromTestId : toTestId}`);
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2 + 20, { steps: 5 });
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 8 });
  if (opts.release !== false) await page.mouse.up();
}

export const nodeCount = (page: Page) => page.locator('.react-flow__node').count();
export const edgeCount = (page: Page) => page.locator('.react-flow__edge').count();

export async function waitFor(check: () => Promise<boolean>, what: string, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

export { viewportSettled } from './support/viewport.ts';

/** Click the empty canvas background (clears the selection) at a spot away from nodes. */
export async function clickPane(page: Page, at = { x: 30, y: 30 }): Promise<void> {
  await page.getByTestId('canvas').click({ position: at });
}

export const mod = process.platform === 'darwin' ? 'Meta' : 'Control';
