/**
 * Shared e2e support: a real `weir serve` subprocess on port 0 with a temp workspace, Debian's
 * Chromium through playwright-core, screenshots under test/artifacts/. Everything started here is
 * released by the returned `close()`; tests call it in `after`.
 *
 * Chromium is required: a missing /usr/bin/chromium fails the tests, unless WEIR_E2E_OPTIONAL=1,
 * in which case they are skipped with a message saying why.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { chromium, type Browser } from 'playwright-core';

export const ROOT = resolve(import.meta.dirname, '../../..');
export const ARTIFACTS = join(ROOT, 'test', 'artifacts');
export const CHROMIUM = '/usr/bin/chromium';
export const ADDRESS_LINE = /^Weir is running at (http:\/\/127\.0\.0\.1:(\d+)\/\?token=([A-Za-z0-9_-]+))$/;

/** undefined when Chromium is there; a skip message when it is missing and optional; throws otherwise. */
export function chromiumOrSkip(): string | undefined {
  if (existsSync(CHROMIUM)) return undefined;
  if (process.env.WEIR_E2E_OPTIONAL === '1') return `skipped: ${CHROMIUM} is missing (WEIR_E2E_OPTIONAL=1)`;
  throw new Error(
    `${CHROMIUM} is missing: install it (apt-get install -y chromium) or set WEIR_E2E_OPTIONAL=1 to skip the browser tests`,
  );
}

function newest(path: string): number {
  if (!existsSync(path)) return 0;
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  return readdirSync(path).reduce((t, n) => Math.max(t, newest(join(path, n))), s.mtimeMs);
}

function rendererStale(): boolean {
  const out = join(ROOT, 'dist', 'renderer', 'index.html');
  const built = existsSync(out) ? statSync(out).mtimeMs : 0;
  const sources = Math.max(
    ...['renderer', 'engine/host', 'engine/graph', 'engine/sql'].map((d) => newest(join(ROOT, d))),
  );
  return built < sources;
}

/**
 * `npm run build --renderer` when dist/renderer is missing or older than its sources. Test files
 * run in parallel processes and Vite empties its output folder, so builds take a lock (a folder,
 * created atomically) and re-check once they hold it.
 */
export function ensureRenderer(): void {
  if (!rendererStale()) return;
  mkdirSync(join(ROOT, 'dist'), { recursive: true });
  const lock = join(ROOT, 'dist', '.renderer-build.lock');
  const start = Date.now();
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // A lock older than two minutes belongs to a build that died.
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 120_000)
        rmSync(lock, { recursive: true, force: true });
      if (Date.now() - start > 180_000) throw new Error(`renderer build lock ${lock} held for 3 minutes`);
      spawnSync(process.execPath, ['-e', 'setTimeout(() => {}, 200)']);
    }
  }
  try {
    if (!rendererStale()) return;
    const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs'), '--renderer'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    if (r.status !== 0) throw new Error(`renderer build failed:\n${r.stderr}`);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

export interface ServeProcess {
  url: string;
  origin: string;
  port: number;
  token: string;
  workspace: string;
  child: ChildProcess;
  firstLine: string;
  stderr(): string;
  /** SIGTERM, wait for exit (SIGKILL after 10 s), remove the workspace; resolves with the exit code. */
  close(): Promise<number | null>;
}

export async function startServe(args: string[] = []): Promise<ServeProcess> {
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'weir-e2e-')));
  const child = spawn(
    process.execPath,
    [join(ROOT, 'bin', 'weir.mjs'), 'serve', '--port', '0', '--workspace', workspace, ...args],
    { cwd: workspace, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let err = '';
  child.stderr.on('data', (d) => {
    err += String(d);
  });
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  let firstLine: string;
  try {
    firstLine = await new Promise<string>((resolveLine, reject) => {
      const timer = setTimeout(() => reject(new Error(`weir serve printed nothing in 60 s:\n${err}`)), 60_000);
      createInterface({ input: child.stdout }).once('line', (line) => {
        clearTimeout(timer);
        resolveLine(line);
      });
      void exited.then((code) => {
        clearTimeout(timer);
        reject(new Error(`weir serve exited ${code}:\n${err}`));
      });
    });
  } catch (e) {
    child.kill('SIGKILL');
    rmSync(workspace, { recursive: true, force: true });
    throw e;
  }
  const m = ADDRESS_LINE.exec(firstLine);
  const url = m?.[1] ?? '';
  return {
    url,
    firstLine,
    workspace,
    child,
    origin: url ? new URL(url).origin : '',
    port: Number(m?.[2] ?? 0),
    token: m?.[3] ?? '',
    stderr: () => err,
    async close() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      const code = await exited;
      clearTimeout(killer);
      rmSync(workspace, { recursive: true, force: true });
      return code;
    },
  };
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

export function artifactPath(name: string): string {
  mkdirSync(ARTIFACTS, { recursive: true });
  return join(ARTIFACTS, name);
}
