/**
 * axe-core (WCAG 2 A and AA rules) in a page: injected from node_modules into a page whose CSP is
 * bypassed for the test only (the app's own CSP allows no inline script; open the page with
 * `bypassCSP: true`), and its violations as one line each.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ROOT } from './serve.ts';

const AXE = readFileSync(join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');

export async function injectAxe(page: Page): Promise<void> {
  await page.addScriptTag({ content: AXE });
}

export function axeViolations(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (c: Document, o: unknown) => Promise<unknown> } }).axe;
    const r = (await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] } })) as {
      violations: Array<{ id: string; nodes: Array<{ target: string[]; any: Array<{ message: string }> }> }>;
    };
    return r.violations.flatMap((v) =>
      v.nodes.map((n) => `${v.id} at ${n.target.join(' ')}: ${n.any[0]?.message ?? ''}`),
    );
  });
}
