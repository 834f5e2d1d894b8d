/** Waiting for the designer's canvas to hold still, for tests that click on it. */
import type { Page } from 'playwright-core';

/** Resolves once the canvas viewport stopped moving (fit-view and layout animate it) for 10 frames. */
export async function viewportSettled(page: Page): Promise<void> {
  await page.evaluate(() => {
    delete (window as unknown as { __vp?: unknown }).__vp;
  });
  await page.waitForFunction(
    () => {
      const w = window as unknown as { __vp?: { t: string; n: number } };
      const t = document.querySelector('.react-flow__viewport')?.getAttribute('style') ?? '';
      w.__vp = w.__vp && w.__vp.t === t ? { t, n: w.__vp.n + 1 } : { t, n: 0 };
      return w.__vp.n >= 10;
    },
    null,
    { polling: 'raf', timeout: 10_000 },
  );
}
