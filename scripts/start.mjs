#!/usr/bin/env node
// `npm start`: build what is out of date, then open Weir on the bundled example. With the
// Electron binary: the desktop app. Without it (an offline install skips its download): one line
// saying so, then the same app served by `weir serve` in the default browser, address printed.
// The workspace is $WEIR_WORKSPACE or ~/Weir.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const EXAMPLE = 'orders-per-user';

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

const electron = electronBinary();
const needRenderer = stale(join(ROOT, 'dist/renderer/index.html'), ['renderer', 'engine/graph', 'engine/host', 'engine/sql']);
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
  console.log('The Electron binary is missing (offline install): serving Weir in your browser instead.');
  run(process.execPath, [join(ROOT, 'bin/weir.mjs'), 'serve', '--port', '0', '--workspace', workspace, '--example', EXAMPLE, '--open']);
}
