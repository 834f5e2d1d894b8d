/**
 * `weir run` as a user starts it: a whole process of the CLI (bin/weir.mjs, the compiled bundle),
 * timed from spawn to exit. What the in-process figures leave out (start-up, planning, the task
 * process's fork, teardown) is in this one.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The CLI as users start it; bench/startup.ts times it with GNU time around the same path. */
export const WEIR_BIN = fileURLToPath(new URL('../bin/weir.mjs', import.meta.url));

/** Milliseconds of `weir run --quiet JOB ...extra` in `cwd`; throws with weir's last line when it fails. */
export function weirRunMs(jobFile: string, cwd: string, extra: string[] = []): number {
  const t = performance.now();
  const r = spawnSync(process.execPath, [WEIR_BIN, 'run', '--quiet', jobFile, ...extra], { cwd, encoding: 'utf8' });
  const ms = performance.now() - t;
  if (r.status !== 0) throw new Error(`weir run exited ${r.status}: ${r.stderr.trim().split('\n').pop()}`);
  return ms;
}
