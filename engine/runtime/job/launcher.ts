/**
 * The default TaskLauncher: `child_process.fork` of task-main.ts through tsx, with advanced
 * serialization. Electron passes its own launcher (utilityProcess) with the same interface.
 * Paths are resolved when a process is launched, not at import, so bundling this module (where
 * `import.meta` may be empty) never breaks a host that brings its own launcher.
 */
import { fork } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { TaskLauncher, TaskProcessHandle } from './api.ts';

/** The task process entry; an Electron utilityProcess launcher forks the same file. */
function taskMainPath(): string {
  return fileURLToPath(new URL('../task/task-main.ts', import.meta.url));
}

export function forkLauncher(): TaskLauncher {
  return {
    launch(): TaskProcessHandle {
      // Resolved here, not in the child: `--import tsx` would resolve against the job's working folder.
      const tsx = import.meta.resolve('tsx');
      const extra = process.env.WEIR_TASK_NODE_ARGS ? process.env.WEIR_TASK_NODE_ARGS.split(' ') : [];
      const child = fork(taskMainPath(), [], {
        execArgv: ['--import', tsx, ...extra],
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
