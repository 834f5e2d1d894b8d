/**
 * Runs a CommonJS bundle with a V8 code cache beside it (`<file>.v8cache`): the bundled task
 * process (scripts/build-cli.mjs) starts without parsing and compiling its ~2 MB again, nor the
 * functions its first job compiled (the SQL expression parser, the operators). Node 20 has no
 * compile cache for modules (`module.enableCompileCache` came in Node 22), so the bundle is a
 * script compiled by `vm.Script` with `cachedData`, which V8 checks itself: a cache made by another
 * V8, other flags or another source is rejected and the bundle is compiled as if there were none.
 * Rules:
 * - The cache is written (once, when missing or rejected) as the process exits, and only after
 *   `shouldWrite()` (the task process: after it was sent a job), so it holds what a job compiled;
 *   an idle spare that exits writes none.
 * - Written to a temporary file and renamed: concurrent task processes never read half a cache.
 * - A cache that cannot be read or written (a read-only install) only costs the speed-up.
 */
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Script } from 'node:vm';

export interface CodeCacheRun {
  /** Whether V8 took the cache: 'used', 'rejected' (compiled afresh), or 'none' (no cache file). */
  cache: 'used' | 'rejected' | 'none';
}

/** The function CommonJS wraps a module in; esbuild's CommonJS output expects exactly these. */
const wrap = (source: string) => `(function (exports, require, module, __filename, __dirname) { ${source}\n})`;

export function runWithCodeCache(file: string, shouldWrite: () => boolean): CodeCacheRun {
  const cacheFile = `${file}.v8cache`;
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    /* none yet */
  }
  const script = new Script(wrap(readFileSync(file, 'utf8')), { filename: file, cachedData });
  const cache = cachedData === undefined ? 'none' : script.cachedDataRejected ? 'rejected' : 'used';
  if (cache !== 'used')
    process.once('exit', () => {
      if (!shouldWrite()) return;
      const tmp = `${cacheFile}.${process.pid}.tmp`;
      try {
        writeFileSync(tmp, script.createCachedData());
        renameSync(tmp, cacheFile);
      } catch {
        // A read-only bundle: the next process compiles again.
        rmSync(tmp, { force: true });
      }
    });
  const module = { exports: {}, filename: file, id: file };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  return { cache };
}
