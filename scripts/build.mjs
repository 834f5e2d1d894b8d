#!/usr/bin/env node
// `npm run build`: the renderer (Vite, scripts/renderer.vite.config.ts -> dist/renderer) and the Electron
// bundles (esbuild: electron/main.ts, preload.ts and the task process entry -> dist/electron/*.cjs).
// and the CLI with its task process (scripts/build-cli.mjs -> dist/cli-*/, named by dist/cli.json).
// Flags: --renderer, --electron, --cli (default: all three). rocksdb stays external: its native
// module is loaded from node_modules (unpacked from the asar in packaged builds).
import { build as viteBuild } from 'vite';
import { build as esbuild } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { buildCli, importMetaBanner } from './build-cli.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const only = (flag) => args.includes(flag);
const none = !only('--renderer') && !only('--electron') && !only('--cli');
const doRenderer = none || only('--renderer');
const doElectron = none || only('--electron');
const doCli = none || only('--cli');

async function buildRenderer() {
  const t = Date.now();
  await viteBuild({ configFile: join(ROOT, 'scripts', 'renderer.vite.config.ts'), logLevel: 'warn' });
  console.error(`build: renderer -> dist/renderer (${Date.now() - t} ms)`);
}

async function buildElectron() {
  const t = Date.now();
  const common = {
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: 'linked',
    logLevel: 'warning',
    absWorkingDir: ROOT,
    external: ['electron', 'rocksdb'],
  };
  await Promise.all([
    esbuild({
      ...common,
      entryPoints: { main: 'electron/main.ts', task: 'electron/task-entry.ts' },
      outdir: 'dist/electron',
      outExtension: { '.js': '.cjs' },
      banner: { js: importMetaBanner },
      define: { 'import.meta': '__weirImportMeta' },
    }),
    // The sandboxed preload may require only 'electron': everything else is inlined.
    esbuild({
      ...common,
      entryPoints: { preload: 'electron/preload.ts' },
      outdir: 'dist/electron',
      outExtension: { '.js': '.cjs' },
      external: ['electron'],
    }),
  ]);
  console.error(`build: electron -> dist/electron/{main,preload,task}.cjs (${Date.now() - t} ms)`);
}

async function buildCliBundle() {
  const t = Date.now();
  const { dir } = await buildCli();
  console.error(`build: cli -> dist/${dir}/weir.mjs, task-main.cjs (${Date.now() - t} ms)`);
}

try {
  if (doCli) await buildCliBundle();
  if (doRenderer) await buildRenderer();
  if (doElectron) await buildElectron();
} catch (err) {
  console.error(`build failed: ${err?.message ?? err}`);
  process.exit(1);
}
