/**
 * The task process entry of the CLI bundle (scripts/build-cli.mjs builds it as `task-main.cjs`;
 * launcher.ts forks it): runs the task process, task-main.ts bundled into one CommonJS file
 * (`task-process.cjs`), with a V8 code cache (code-cache.ts). From the sources and in Electron,
 * task-main.ts is the entry itself.
 */
import { fileURLToPath } from 'node:url';
import { runWithCodeCache } from './code-cache.ts';

// The cache is worth writing once the process compiled a job's code, not for an idle spare.
let sentAJob = false;
process.once('message', () => {
  sentAJob = true;
});
runWithCodeCache(fileURLToPath(new URL('./task-process.cjs', import.meta.url)), () => sentAJob);
