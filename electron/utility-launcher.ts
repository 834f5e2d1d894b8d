/**
 * The Electron `TaskLauncher`: each run's operators live in a `utilityProcess` (a Node child the
 * main process owns; a crash there never takes the window down). The entry is the bundled
 * dist/electron/task.cjs (electron/task-entry.ts), which speaks the runtime's task protocol over
 * the utility process's parentPort.
 */
import { utilityProcess } from 'electron';
import type { TaskLauncher, TaskProcessHandle } from '../engine/runtime/job/api.ts';

export function createUtilityLauncher(entry: string): TaskLauncher {
  return {
    launch(): TaskProcessHandle {
      // stderr piped (and copied to ours) so its lines also reach the run's log in the app.
      const child = utilityProcess.fork(entry, [], {
        serviceName: 'Weir task process',
        stdio: ['ignore', 'inherit', 'pipe'],
      });
      const stderrListeners: Array<(line: string) => void> = [];
      let partial = '';
      child.stderr?.on('data', (d: Buffer) => {
        process.stderr.write(d);
        const lines = (partial + String(d)).split('\n');
        partial = lines.pop() ?? '';
        for (const line of lines) for (const l of stderrListeners) l(line);
      });
      type ExitInfo = { code: number | null; signal: string | null };
      let exited: ExitInfo | null = null;
      const exitListeners: Array<(info: ExitInfo) => void> = [];
      let killedWith: string | null = null;
      child.once('exit', (code) => {
        exited = { code: killedWith ? null : code, signal: killedWith };
        for (const l of exitListeners) l(exited);
      });
      return {
        send(message) {
          if (!exited) child.postMessage(message);
        },
        onMessage(listener) {
          child.on('message', listener);
        },
        onExit(listener) {
          // A listener added after the exit still hears about it (the runner may subscribe late).
          if (exited) listener(exited);
          else exitListeners.push(listener);
        },
        kill(signal = 'SIGTERM') {
          if (exited) return;
          killedWith = signal;
          // utilityProcess.kill() asks politely; fault injection needs a real SIGKILL.
          if (signal === 'SIGKILL' && child.pid !== undefined) {
            try {
              process.kill(child.pid, 'SIGKILL');
              return;
            } catch {
              /* already gone */
            }
          }
          child.kill();
        },
        get pid() {
          return child.pid;
        },
        onStderr(listener) {
          stderrListeners.push(listener);
        },
      };
    },
  };
}
