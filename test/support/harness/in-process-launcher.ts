/**
 * A TaskLauncher that runs the real task-process runtime (TaskProcessRuntime) on this event loop
 * instead of forking: the same plan, channels, operators, checkpoints and 2PC sinks, without the
 * ~0.5 s a forked tsx process costs. Messages are copied with structuredClone, as the fork
 * launcher's 'advanced' serialization copies them, and delivered asynchronously. Used by the
 * data-driven suites (test/flink-parity) that run many small jobs; crash tests keep real processes.
 */
import type { TaskLauncher, TaskProcessHandle } from '../../../engine/runtime/job/api.ts';
import { TaskProcessRuntime } from '../../../engine/runtime/task/task-process.ts';
import type { HostToTask, TaskToHost } from '../../../engine/runtime/common/task-protocol.ts';

export function inProcessLauncher(): TaskLauncher {
  return {
    launch(): TaskProcessHandle {
      const messageListeners: Array<(m: unknown) => void> = [];
      const exitListeners: Array<(info: { code: number | null; signal: string | null }) => void> = [];
      let exited: { code: number | null; signal: string | null } | null = null;
      const finish = (info: { code: number | null; signal: string | null }): void => {
        if (exited) return;
        exited = info;
        for (const l of exitListeners) l(info);
      };
      const runtime = new TaskProcessRuntime(
        (m: TaskToHost) => {
          if (exited) return;
          const copy = structuredClone(m);
          setImmediate(() => {
            if (!exited) for (const l of messageListeners) l(copy);
          });
        },
        (code) => {
          setTimeout(() => finish({ code, signal: null }), 5);
        },
      );
      return {
        send: (m) => {
          const copy = structuredClone(m) as HostToTask;
          setImmediate(() => {
            if (!exited) runtime.handle(copy);
          });
        },
        onMessage: (l) => {
          messageListeners.push(l);
        },
        onExit: (l) => {
          if (exited) l(exited);
          else exitListeners.push(l);
        },
        kill: (signal = 'SIGKILL') => {
          finish({ code: null, signal });
        },
        get pid() {
          return undefined;
        },
      };
    },
  };
}
