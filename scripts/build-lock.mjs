/**
 * Helpers of the Maven builds (flink-build.mjs, kafka-build.mjs): one build at a time (`npm test`
 * runs two test files at once, and each builds what it needs), and whether a command is installed.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** Whether `cmd args` runs and exits 0 (java -version, mvn -v). */
export function onPath(cmd, args) {
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  return !r.error && r.status === 0;
}

/**
 * Takes the lock file `file` (the holder's pid; a lock whose process is gone is taken over),
 * waiting up to 15 minutes, and returns its release. `fail(message)` ends the process.
 */
export function buildLock(file, fail) {
  mkdirSync(dirname(file), { recursive: true });
  const deadline = Date.now() + 15 * 60_000;
  for (;;) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      return () => rmSync(file, { force: true });
    } catch {
      const holder = Number(readFileSync(file, 'utf8') || 0);
      let alive = false;
      try {
        alive = holder > 0 && process.kill(holder, 0);
      } catch {
        alive = false;
      }
      if (!alive) rmSync(file, { force: true });
      else if (Date.now() > deadline) fail(`another build (pid ${holder}) holds ${file}`);
      else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 500);
    }
  }
}
