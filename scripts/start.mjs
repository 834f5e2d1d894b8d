#!/usr/bin/env node
// `npm start`: build what is out of date, then open Weir on the bundled example. With the
// Electron binary: the desktop app. `npm install` never downloads that binary (package.json's
// allowScripts turns electron's postinstall off, so an offline install cannot fail on it): the first
// start runs electron's own install.js once. When that fails (no network, a proxy), one line says
// why, and the same app is served by `weir serve` in the default browser, address printed.
// The workspace is $WEIR_WORKSPACE or ~/Weir.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
// An example that keeps running (an unbounded generator, checkpoints every second), so a first run
// shows checkpoints, watermarks, state sizes and charts moving; the bounded ones are in Examples.
const EXAMPLE = 'live-sensors';

function newest(path) {
  if (!existsSync(path)) return 0;
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  let t = 0;
  for (const name of readdirSync(path)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    t = Math.max(t, newest(join(path, name)));
  }
  return t;
}

/** Output is stale when missing or older than any of its sources. */
function stale(output, sources) {
  const out = existsSync(output) ? statSync(output).mtimeMs : 0;
  return out === 0 || sources.some((s) => newest(join(ROOT, s)) > out);
}

function electronBinary() {
  try {
    // The electron package exports the binary's path, and throws when it was never downloaded.
    const p = createRequire(import.meta.url)('electron');
    return typeof p === 'string' && existsSync(p) ? p : null;
  } catch {
    return null;
  }
}

/**
 * Runs electron's own install.js (the postinstall npm skipped) once; null when the binary is now
 * there, else a one-line reason. ELECTRON_SKIP_BINARY_DOWNLOAD (CI, offline installs) skips it.
 * The download is bounded so a network that swallows packets cannot hang `npm start`.
 */
function fetchElectron() {
  if (process.env.ELECTRON_SKIP_BINARY_DOWNLOAD) return 'ELECTRON_SKIP_BINARY_DOWNLOAD is set';
  let script;
  try {
    script = createRequire(import.meta.url).resolve('electron/install.js');
  } catch {
    return 'the electron package is not installed';
  }
  console.log('Downloading the Electron binary (first start only)...');
  const r = spawnSync(process.execPath, [script], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  if (r.status === 0 && electronBinary()) return null;
  if (r.error) return `the download did not finish (${r.error.message})`;
  // @electron/get prints a stack; its first line names the cause (e.g. getaddrinfo ENOTFOUND github.com).
  const first = `${r.stderr ?? ''}`
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l.length > 0);
  return `the download failed${first ? ` (${first.slice(0, 160)})` : ''}`;
}

let electron = electronBinary();
let whyNoElectron = '';
if (!electron) {
  whyNoElectron = fetchElectron() ?? '';
  electron = whyNoElectron ? null : electronBinary();
}
const needRenderer = stale(join(ROOT, 'dist/renderer/index.html'), [
  'renderer',
  'engine/graph',
  'engine/host',
  'engine/sql',
]);
const needElectron = electron !== null && stale(join(ROOT, 'dist/electron/main.cjs'), ['electron', 'engine']);
const flags = [needRenderer && '--renderer', needElectron && '--electron'].filter(Boolean);
if (flags.length) {
  const r = spawnSync(process.execPath, [join(ROOT, 'scripts/build.mjs'), ...flags], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

function run(cmd, args) {
  const child = spawn(cmd, args, { cwd: ROOT, stdio: 'inherit' });
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
}

if (electron) {
  run(electron, [ROOT, '--example', EXAMPLE]);
} else {
  const workspace = process.env.WEIR_WORKSPACE || join(homedir(), 'Weir');
  mkdirSync(workspace, { recursive: true });
  console.log(
    `No Electron window: the Electron binary is missing and ${whyNoElectron}; serving Weir in your browser instead.`,
  );
  run(process.execPath, [
    join(ROOT, 'bin/weir.mjs'),
    'serve',
    '--port',
    '0',
    '--workspace',
    workspace,
    '--example',
    EXAMPLE,
    '--open',
  ]);
}
