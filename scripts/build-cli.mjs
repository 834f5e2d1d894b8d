// The CLI and task-process bundle: esbuild turns engine/cli/main.ts and the task process entry into
// ES modules under dist/cli-<id>/ (code split, so a command's lazy `import()` stays a chunk loaded
// only when that command runs; npm packages stay external and load from node_modules when needed).
// dist/cli.json names the current folder and lists every source file that went in: bin/weir.mjs
// rebuilds when one is newer than the build (bin/cli-bundle.mjs).
// Each build writes a fresh folder and then swaps the pointer, so concurrent first runs (tests
// spawning `weir` side by side) never see half a bundle, and a running job keeps its own chunks.
// The folder sits two levels under the root like the sources (engine/cli/), so the engine's
// `new URL('../../package.json', import.meta.url)` reads the same files either way.
// Run directly, it is the package's `prepare` script (npm install / npm ci build the CLI offline);
// an install without dev dependencies (no esbuild) skips it and `weir` runs the sources.
import { existsSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const POINTER = join(ROOT, 'dist', 'cli.json');
/** Superseded bundle folders older than this are deleted by the next build (a job may still run one). */
const KEEP_OLD_MS = 60 * 60 * 1000;

/**
 * npm packages stay external (Node loads them from node_modules when a chunk needs them), except
 * dt-sql-parser: its ES build imports folders, which only a bundler (or tsx) resolves.
 */
const BUNDLED_PACKAGES = ['dt-sql-parser'];
const externalPackages = {
  name: 'external-packages',
  setup(b) {
    // Bare specifiers only: relative imports (inside a bundled package too) are followed.
    b.onResolve({ filter: /^[^./]/ }, ({ path }) => {
      const bundled = BUNDLED_PACKAGES.some((p) => path === p || path.startsWith(`${p}/`));
      return bundled ? undefined : { path, external: true };
    });
  },
};

/** Builds the bundle; resolves to the manifest written to dist/cli.json. */
export async function buildCli() {
  const startedAt = Date.now();
  const id = `cli-${startedAt.toString(36)}-${process.pid}`;
  const { build } = await import('esbuild');
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: { weir: 'engine/cli/main.ts', 'task-main': 'engine/runtime/task/task-main.ts' },
    outdir: join('dist', id),
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    plugins: [externalPackages],
    // The Flink SQL importer finds ANTLR parse-tree contexts by their class names.
    keepNames: true,
    sourcemap: 'linked',
    metafile: true,
    logLevel: 'warning',
  });
  const manifest = {
    dir: id,
    builtAt: startedAt,
    // The build's own options count too: a change here rebuilds like a change to a source.
    inputs: [
      'scripts/build-cli.mjs',
      ...Object.keys(result.metafile.inputs).filter((p) => !p.includes('node_modules')),
    ],
  };
  const tmp = `${POINTER}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(manifest)}\n`);
  renameSync(tmp, POINTER);
  removeOld(id);
  return manifest;
}

function removeOld(current) {
  const dist = join(ROOT, 'dist');
  if (!existsSync(dist)) return;
  for (const name of readdirSync(dist)) {
    if (!name.startsWith('cli-') || name === current) continue;
    const p = join(dist, name);
    try {
      if (Date.now() - statSync(p).mtimeMs > KEEP_OLD_MS) rmSync(p, { recursive: true, force: true });
    } catch {
      /* another build removed it */
    }
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    const { dir } = await buildCli();
    console.error(`build: cli -> dist/${dir}/{weir,task-main}.mjs`);
  } catch (e) {
    console.error(`build: cli skipped (${e?.message ?? e}); weir will run the TypeScript sources`);
  }
}
