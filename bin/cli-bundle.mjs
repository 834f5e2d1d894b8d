// Finds the compiled CLI (scripts/build-cli.mjs) for bin/weir.mjs: the entry named by dist/cli.json
// when no source that went into it changed since, else a fresh build (esbuild, no network) in a
// child process, as `npm start` runs its builds. null means "run the sources through tsx": no
// bundle and no esbuild (an install without dev dependencies), or the build failed.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const POINTER = join(ROOT, 'dist', 'cli.json');

function readManifest() {
  try {
    return JSON.parse(readFileSync(POINTER, 'utf8'));
  } catch {
    return null;
  }
}

const entry = (m) => join(ROOT, 'dist', m.dir, 'weir.mjs');

/** Fresh: every source it was built from is still there and not newer than the build. */
function fresh(m) {
  if (!existsSync(entry(m))) return false;
  // An install that ships the bundle without the sources runs the bundle as it is.
  if (!existsSync(join(ROOT, 'engine'))) return true;
  for (const p of m.inputs) {
    try {
      if (statSync(join(ROOT, p)).mtimeMs > m.builtAt) return false;
    } catch {
      return false;
    }
  }
  return true;
}

/** The path of the bundled CLI entry, building it first when missing or stale; null to use tsx. */
export function cliBundle() {
  const m = readManifest();
  if (m && fresh(m)) return entry(m);
  if (!existsSync(join(ROOT, 'scripts', 'build-cli.mjs'))) return m && existsSync(entry(m)) ? entry(m) : null;
  // Quiet when it works: a command's output must not change on the run that rebuilt it.
  const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build-cli.mjs')], { cwd: ROOT, encoding: 'utf8' });
  const built = readManifest();
  if (built && fresh(built)) return entry(built);
  process.stderr.write(`weir: the CLI bundle could not be built, running the sources\n${r.stderr ?? ''}`);
  return null;
}
