/**
 * The default TaskLauncher: `child_process.fork` of the task process entry, with advanced
 * serialization. Run from the sources, that is task-main.ts through tsx; run from the CLI bundle
 * (scripts/build-cli.mjs), it is the compiled task-main.cjs next to this chunk, started by plain
 * node: no TypeScript loader in the task process either (task-main.cjs runs the whole task process,
 * one CommonJS file, with a V8 code cache: runtime/task/code-cache.ts). Electron passes its own launcher
 * (utilityProcess) with the same interface.
 * Paths are resolved when a process is launched, not at import, so bundling this module (where
 * `import.meta` may be empty) never breaks a host that brings its own launcher.
 */
import { fork } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { TaskLauncher, TaskProcessHandle } from './api.ts';

/**
 * The task process entry next to this module: task-main.ts when it runs from the TypeScript
 * sources (tests, WEIR_DEV=1), the bundle's task-main.cjs when it runs from the CLI bundle.
 * An Electron utilityProcess launcher forks its own bundle of the same file.
 */
function defaultTaskMain(): string {
  const entry = import.meta.url.endsWith('.ts') ? '../task/task-main.ts' : './task-main.cjs';
  return fileURLToPath(new URL(entry, import.meta.url));
}

export interface ForkLauncherOptions {
  /** The task process entry to fork (the bench forks the bundled one from the sources). */
  entry?: string;
}

export function forkLauncher(opts: ForkLauncherOptions = {}): TaskLauncher {
  return {
    launch(): TaskProcessHandle {
      const entry = opts.entry ?? defaultTaskMain();
      // Resolved here, not in the child: `--import tsx` would resolve against the job's working folder.
      const loader = entry.endsWith('.ts') ? ['--import', import.meta.resolve('tsx')] : [];
      const extra = process.env.WEIR_TASK_NODE_ARGS ? process.env.WEIR_TASK_NODE_ARGS.split(' ') : [];
      const child = fork(entry, [], {
        execArgv: [...loader, ...extra],
        serialization: 'advanced',
        // stderr is piped (and copied to ours) so its lines also reach the run's log.
        stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
      });
      const stderrListeners: Array<(line: string) => void> = [];
      child.stderr?.on('data', (d: Buffer) => process.stderr.write(d));
      if (child.stderr)
        createInterface({ input: child.stderr }).on('line', (line) => {
          for (const l of stderrListeners) l(line);
        });
      const exitListeners: Array<(info: { code: number | null; signal: string | null }) => void> = [];
      let exited: { code: number | null; signal: string | null } | null = null;
      child.on('exit', (code, signal) => {
        exited = { code, signal };
        for (const l of exitListeners) l(exited);
      });
      child.on('error', () => {
        /* reported through exit */
      });
      return {
        send: (m) => {
          if (child.connected)
            child.send(m as object, (err) => {
              void err;
            });
        },
        onMessage: (l) => {
          child.on('message', l);
        },
        onExit: (l) => {
          if (exited) l(exited);
          else exitListeners.push(l);
        },
        kill: (signal = 'SIGKILL') => {
          try {
            child.kill(signal);
          } catch {
            /* gone */
          }
        },
        get pid() {
          return child.pid;
        },
        onStderr: (l) => {
          stderrListeners.push(l);
        },
      };
    },
  };
}
