/**
 * Support for the designer's browser tests: a real `weir serve` on port 0 with a temp workspace,
 * and Debian's Chromium through playwright-core. Everything started here is disposed by `close()`.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { chromium, type Browser, type Page } from 'playwright-core';

export const ROOT = new URL('../../', import.meta.url).pathname;
export const ARTIFACTS = join(ROOT, 'test', 'artifacts');
const CHROMIUM = '/usr/bin/chromium';

function newestMtime(dir: string): number {
  let t = 0;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const s = statSync(p);
    t = Math.max(t, s.isDirectory() ? newestMtime(p) : s.mtimeMs);
  }
  return t;
}

/** Build dist/renderer when it is missing or older than the renderer sources. */
export function ensureRendererBuilt(): void {
  const out = join(ROOT, 'dist', 'renderer', 'index.html');
  const src = Math.max(newestMtime(join(ROOT, 'renderer', 'src')), statSync(join(ROOT, 'renderer', 'index.html')).mtimeMs);
  if (existsSync(out) && statSync(out).mtimeMs >= src) return;
  const r = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '-c', 'renderer/vite.config.ts', '--logLevel', 'error'],
    { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) throw new Error('renderer build failed');
}

export function hasChromium(): boolean {
  return existsSync(CHROMIUM);
}

export interface Served { url: string; workspace: string; child: ChildProcess; close(): Promise<void> }

export async function startServe(opts: { example?: string } = {}): Promise<Served> {
  ensureRendererBuilt();
  const workspace = mkdtempSync(join(tmpdir(), 'weir-designer-'));
  const args = [join(ROOT, 'bin', 'weir.mjs'), 'serve', '--port', '0', '--workspace', workspace];
  if (opts.example) args.push('--example', opts.example);
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d) => { stderr += String(d); });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`weir serve did not start in 60 s:\n${stderr}`)), 60_000);
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (line) => {
      clearTimeout(timer);
      const m = /(http:\/\/\S+)/.exec(line);
      if (m) resolve(m[1]); else reject(new Error(`unexpected first line: ${line}\n${stderr}`));
    });
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`weir serve exited ${code}:\n${stderr}`)); });
  });
  return {
    url, workspace, child,
    async close() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        const t = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(t);
      }
      rmSync(workspace, { recursive: true, force: true });
    },
  };
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

const uncaught = new WeakMap<Page, string[]>();

/** Uncaught exceptions the page threw since it was opened (tests assert there are none). */
export function pageErrors(page: Page): string[] {
  return uncaught.get(page) ?? [];
}

export async function openDesigner(browser: Browser, url: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(url).origin });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  uncaught.set(page, errors);
  await page.goto(url);
  await page.getByTestId('app-ready').waitFor({ timeout: 20_000 });
  return page;
}

export function artifact(name: string): string {
  mkdirSync(ARTIFACTS, { recursive: true });
  return join(ARTIFACTS, name);
}
