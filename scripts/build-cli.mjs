// The CLI and task-process bundle, under dist/cli-<id>/: esbuild turns engine/cli/main.ts into ES
// modules (code split, so a command's lazy `import()` stays a chunk loaded only when that command
// runs), and the task process into one CommonJS file, task-process.cjs, which its entry
// task-main.cjs runs with a V8 code cache (engine/runtime/task/code-cache.ts): a task process is
// ready to read in a fraction of the time it took to load a dozen ES chunks (docs/performance.md).
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
 * dt-sql-parser, whose ES build imports folders, which only a bundler (or tsx) resolves, and the
 * ones every task process loads: zod (~80 ES files for Node to resolve one by one) and
 * node-sql-parser with its big-integer (CommonJS, which Node's ES loader first scans for its exports:
 * 40 ms). The heavy ones a job may not need (kafkajs, pg, rocksdb) stay external and are imported
 * when a node uses them.
 */
const BUNDLED_PACKAGES = ['dt-sql-parser', 'zod', 'node-sql-parser', 'big-integer'];
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

/**
 * The engine is ESM and reads import.meta; in a CommonJS bundle that object is rebuilt from the
 * bundle's own location (with `define: { 'import.meta': '__weirImportMeta' }`).
 */
export const importMetaBanner = [
  'const __weirUrl = require("node:url");',
  'const __weirImportMeta = { url: __weirUrl.pathToFileURL(__filename).href,',
  '  resolve: (s) => { try { return __weirUrl.pathToFileURL(require.resolve(s)).href; } catch { return s; } },',
  '  dirname: __dirname, filename: __filename };',
].join('\n');

/** Builds the bundle; resolves to the manifest written to dist/cli.json. */
export async function buildCli() {
  const startedAt = Date.now();
  const id = `cli-${startedAt.toString(36)}-${process.pid}`;
  const { build } = await import('esbuild');
  const common = {
    absWorkingDir: ROOT,
    bundle: true,
    platform: 'node',
    target: 'node20',
    plugins: [externalPackages],
    // The Flink SQL importer finds ANTLR parse-tree contexts by their class names.
    keepNames: true,
    sourcemap: 'linked',
    metafile: true,
    logLevel: 'warning',
  };
  const [cli, task] = await Promise.all([
    build({
      ...common,
      entryPoints: { weir: 'engine/cli/main.ts' },
      outdir: join('dist', id),
      outExtension: { '.js': '.mjs' },
      splitting: true,
      format: 'esm',
    }),
    // The task process: task-process.cjs is one script, so that one V8 code cache covers all of it
    // (code-cache.ts), run by the entry task-main.cjs (CommonJS: Node starts it without its ES
    // loader). Its `import()`s of external packages become `require`s: a vm.Script has no ES loader.
    build({
      ...common,
      entryPoints: {
        'task-main': 'engine/runtime/task/task-main-bundled.ts',
        'task-process': 'engine/runtime/task/task-main.ts',
      },
      outdir: join('dist', id),
      outExtension: { '.js': '.cjs' },
      format: 'cjs',
      supported: { 'dynamic-import': false },
      banner: { js: importMetaBanner },
      define: { 'import.meta': '__weirImportMeta' },
    }),
  ]);
  const sources = [cli, task].flatMap((r) => Object.keys(r.metafile.inputs)).filter((p) => !p.includes('node_modules'));
  const manifest = {
    dir: id,
    builtAt: startedAt,
    // The build's own options count too: a change here rebuilds like a change to a source.
    inputs: ['scripts/build-cli.mjs', ...new Set(sources)],
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
    console.error(`build: cli -> dist/${dir}/weir.mjs, task-main.cjs`);
  } catch (e) {
    console.error(`build: cli skipped (${e?.message ?? e}); weir will run the TypeScript sources`);
  }
}
