/**
 * The designer shows types (issue 22), Chromium against `weir serve --example orders-per-user`,
 * whose file source declares no columns (they are sampled from its data): an edge's popover lists
 * its columns with their Flink types, nullability, time attribute and changelog kind; the
 * inspector lists a node's input columns; expression fields complete columns and functions with
 * their signatures from the keyboard; a misspelled column shows on the node at once.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import {
  artifactPath,
  chromiumOrSkip,
  ensureRenderer,
  launchChromium,
  startServe,
  type ServeProcess,
} from './support/serve.ts';
import { clickPane, viewportSettled, waitFor } from './designer-helpers.ts';

const skip = chromiumOrSkip();
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** WCAG 2 A/AA violations inside `selector` (axe-core), as `rule: target` lines. */
async function axeViolations(page: Page, selector: string): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: AXE });
  return page.evaluate(async (sel) => {
    const axe = (window as unknown as { axe: { run: (c: unknown, o: unknown) => Promise<AxeResult> } }).axe;
    type AxeResult = { violations: Array<{ id: string; nodes: Array<{ target: string[] }> }> };
    const r = await axe.run(sel, { runOnly: ['wcag2a', 'wcag2aa'] });
    return r.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
  }, selector);
}

/** Rows of a schema table as `name type flags`, one string each. */
async function schemaRows(page: Page, testId: string): Promise<string[]> {
  return page
    .getByTestId(testId)
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map((r) =>
        [...r.children]
          .map((c) => c.textContent?.trim() ?? '')
          .filter(Boolean)
          .join(' '),
      ),
    );
}

/** Every pattern matches one of the rows. */
function assertRows(rows: string[], ...patterns: RegExp[]): void {
  for (const re of patterns)
    assert.ok(
      rows.some((r) => re.test(r)),
      `${re} in: ${rows.join(' | ')}`,
    );
}

describe('the designer shows types', { skip }, () => {
  let serve: ServeProcess;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  before(async () => {
    ensureRenderer();
    serve = await startServe(['--example', 'orders-per-user']);
    browser = await launchChromium();
    // bypassCSP: the app allows only its own scripts; axe-core is injected for the accessibility checks.
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
    page = await context.newPage();
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    await page.goto(serve.url);
    await page.getByTestId('app-ready').waitFor({ timeout: 30_000 });
    await page.getByTestId('job-name').filter({ hasText: 'orders-per-user' }).waitFor({ timeout: 20_000 });
    // A click while the opened job is still being fitted misses the node (a loaded CI run did).
    await viewportSettled(page);
    // The source's columns come from a sample of its file: wait until they are typed.
    await page.getByTestId('node-orders').click();
    await page.waitForFunction(
      () => Number(document.querySelector('[data-testid="source-columns"]')?.getAttribute('data-count')) > 0,
      null,
      { timeout: 20_000 },
    );
    await clickPane(page);
    await viewportSettled(page);
  });
  after(async () => {
    await browser?.close();
    await serve?.close();
  });

  it('hovering an edge shows its columns, types, time attribute and kind', async () => {
    const edge = page.getByTestId('rf__edge-orders.out->big');
    await edge.hover();
    const pop = page.getByTestId('edge-schema');
    await pop.waitFor();
    assert.equal(await pop.getAttribute('role'), 'dialog');
    assert.match((await pop.getAttribute('aria-label')) ?? '', /Orders to Amount >= 10/);
    const rows = await schemaRows(page, 'edge-schema-columns');
    assertRows(rows, /^user STRING/, /^amount (DOUBLE|BIGINT)/, /^ts BIGINT NULL rowtime$/);
    assert.equal(await pop.getByTestId('schema-kind').textContent(), 'append-only');
    await page.screenshot({ path: artifactPath('edge-schema-popover.png') });
    assert.deepEqual(await axeViolations(page, '[data-testid="edge-schema"]'), []);
    // Leaving the edge closes it.
    await page.mouse.move(20, 700);
    await pop.waitFor({ state: 'detached' });
  });

  it('a selected edge keeps its popover and the inspector lists the same columns', async () => {
    await page.getByTestId('rf__edge-big.out->per_user').click();
    await page.getByTestId('edge-schema').waitFor();
    await page.mouse.move(20, 700);
    assert.equal(await page.getByTestId('edge-schema').count(), 1, 'a selected edge keeps its popover');
    const inInspector = await schemaRows(page, 'edge-form-columns');
    assert.deepEqual(inInspector, await schemaRows(page, 'edge-schema-columns'));
    await clickPane(page);
    await page.getByTestId('edge-schema').waitFor({ state: 'detached' });
  });

  it("the inspector lists the selected node's input columns with their types", async () => {
    await page.getByTestId('node-per_user').click();
    const list = page.getByTestId('input-schema');
    await list.waitFor();
    assert.equal(await list.getAttribute('aria-label'), 'Input columns');
    const rows = await schemaRows(page, 'input-schema-columns');
    assertRows(rows, /^user STRING/, /^amount (DOUBLE|BIGINT)/);
    // The window's output (the sink's input) is its keys, window bounds and aggregates; the bounds
    // are TIMESTAMP(3) NOT NULL, as Flink types them.
    await page.getByTestId('node-out').click();
    const out = await schemaRows(page, 'input-schema-columns');
    assertRows(out, /^window_start TIMESTAMP\(3\) NOT NULL$/, /^n BIGINT NOT NULL$/, /^total DOUBLE NULL$/);
  });

  it('completes columns and functions with signatures from the keyboard', async () => {
    await page.getByTestId('node-big').click();
    const where = page.getByTestId('f-where');
    await where.click();
    await page.keyboard.press('End');
    await page.keyboard.type(' AND UP');
    const list = page.getByTestId('f-where-completions');
    await list.waitFor();
    assert.equal(await list.getAttribute('role'), 'listbox');
    const first = list.getByRole('option').first();
    assert.match((await first.textContent()) ?? '', /^UPPER/);
    assert.equal(await first.getAttribute('aria-selected'), 'true');
    assert.match((await page.getByTestId('f-where-signature').textContent()) ?? '', /^UPPER\(/);
    // The field names the active option for screen readers.
    const activeId = await where.getAttribute('aria-activedescendant');
    assert.equal(activeId, await first.getAttribute('id'));
    await page.screenshot({ path: artifactPath('autocomplete-function.png') });
    assert.deepEqual(await axeViolations(page, '[data-testid="node-form"] .expr'), []);
    // Escape closes the list and keeps the text; typing opens it again.
    await page.keyboard.press('Escape');
    await list.waitFor({ state: 'detached' });
    assert.equal(await where.inputValue(), 'amount >= 10 AND UP');
    await page.keyboard.press('Enter');
    assert.equal(await where.inputValue(), 'amount >= 10 AND UP', 'Enter without a list adds no line');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
    await page.keyboard.type('us');
    await list.waitFor();
    assert.match((await list.getByRole('option').first().textContent()) ?? '', /^user\s*STRING/);
    await page.screenshot({ path: artifactPath('autocomplete-column.png') });
    await page.keyboard.press('Tab');
    assert.equal(await where.inputValue(), 'amount >= 10 AND user');
    // Arrows move through functions; Enter takes one and opens its parenthesis.
    await page.keyboard.type(" = 'A' OR LO");
    await list.waitFor();
    const labels = await list.getByRole('option').allTextContents();
    const lower = labels.findIndex((l) => l.startsWith('LOWER'));
    assert.ok(lower >= 0, labels.join(' | '));
    for (let i = 0; i < lower; i++) await page.keyboard.press('ArrowDown');
    assert.match((await page.getByTestId('f-where-signature').textContent()) ?? '', /^LOWER\(/);
    await page.keyboard.press('Enter');
    assert.equal(await where.inputValue(), "amount >= 10 AND user = 'A' OR LOWER(");
    await where.fill('amount >= 10');
    assert.deepEqual(pageErrors, []);
  });

  it('the word being typed is not flagged in its field while completions are open; leaving the field flags it', async () => {
    await page.getByTestId('node-big').click();
    const where = page.getByTestId('f-where');
    await where.click();
    await page.keyboard.press('End');
    await page.keyboard.type(' AND us');
    await page.getByTestId('f-where-completions').waitFor();
    // The validator already says 'us' is no column (on the node); the field under the caret waits.
    await page.getByTestId('problem-big').waitFor();
    assert.equal(await page.getByTestId('f-where-error-mark').count(), 0);
    assert.notEqual(await where.getAttribute('aria-invalid'), 'true');
    await where.blur();
    const mark = page.getByTestId('f-where-error-mark');
    await mark.waitFor();
    assert.equal(await mark.textContent(), 'us');
    assert.equal(await where.getAttribute('aria-invalid'), 'true');
    await where.fill('amount >= 10');
    await page.getByTestId('problem-big').waitFor({ state: 'detached' });
    assert.deepEqual(pageErrors, []);
  });

  it('a misspelled column shows on the node at once, with the suggestion, and is underlined', async () => {
    await page.getByTestId('node-per_user').click();
    const key = page.getByTestId('f-keyBy');
    await key.fill('usr');
    // One edit, no run: the node carries the validator's message.
    const problem = page.getByTestId('problem-per_user');
    await problem.waitFor();
    const text = (await problem.textContent()) ?? '';
    // The node's two lines show the suggestion (the list of every column is in the inspector).
    assert.equal(text.replace(/^!/, ''), "unknown column 'usr': did you mean 'user'?");
    const alert = page.getByTestId('node-form').getByRole('alert').first();
    assert.equal(
      await alert.textContent(),
      "unknown column 'usr' (columns: order_id, user, amount, ts; did you mean 'user'?)",
    );
    assert.equal(await key.getAttribute('aria-invalid'), 'true');
    assert.equal(await page.getByTestId('f-keyBy-error-mark').textContent(), 'usr');
    await page.screenshot({ path: artifactPath('misspelled-column.png') });
    await key.fill('user');
    await problem.waitFor({ state: 'detached' });
  });

  it('a type error names the operator and its argument types, and underlines it', async () => {
    await page.getByTestId('node-big').click();
    const where = page.getByTestId('f-where');
    await where.fill('amount * 2 > 1 AND user * 2 > 1');
    const problem = page.getByTestId('problem-big');
    await problem.waitFor();
    assert.match((await problem.textContent()) ?? '', /Cannot apply '\*' to arguments of type '<STRING> \* <INT>'/);
    // The second '*' (the one applied to the STRING), not the first.
    const mark = page.getByTestId('f-where-error-mark');
    assert.equal(await mark.textContent(), '*');
    assert.equal(await page.locator('[data-error-mark]').count(), 1);
    // A function applied to the wrong type names its supported form (the catalog's signature).
    await where.fill("amount > 1 AND UPPER(amount) = 'A'");
    await waitFor(async () => /UPPER/.test((await problem.textContent()) ?? ''), 'the UPPER error on the node');
    assert.match(
      (await page.getByTestId('node-form').getByRole('alert').first().textContent()) ?? '',
      /^Cannot apply 'UPPER' to arguments of type 'UPPER\(<DOUBLE>\)'\. Supported form\(s\): 'UPPER\(s STRING\) → STRING'/,
    );
    assert.equal(await mark.textContent(), 'UPPER');
    await page.screenshot({ path: artifactPath('type-error.png') });
    await where.fill('amount >= 10');
    await problem.waitFor({ state: 'detached' });
    assert.deepEqual(pageErrors, []);
  });
});
