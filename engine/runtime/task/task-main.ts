/**
 * Entry point of the task process (forked by the host: launcher.ts). Wires process IPC to
 * the TaskProcessRuntime. Inside Electron, electron/task-entry.ts bridges a utilityProcess's
 * `process.parentPort` onto `process.send` / 'message' before loading this file.
 * If the host goes away, the task process exits too: it never outlives it.
 */
import { TaskProcessRuntime } from './task-process.ts';
import type { HostToTask, TaskToHost } from '../common/task-protocol.ts';

if (!process.send) {
  process.stderr.write('weir task process: must be started by the host with an IPC channel\n');
  process.exit(2);
}

const send = (m: TaskToHost): void => {
  try {
    process.send!(m);
  } catch {
    /* host gone: the disconnect handler exits */
  }
};

let exiting = false;
const exit = (code: number): void => {
  if (exiting) return;
  exiting = true;
  // Let the last IPC message (failed/closed) flush before leaving.
  setTimeout(() => process.exit(code), 20);
};

const runtime = new TaskProcessRuntime(send, exit);
process.on('message', (m) => runtime.handle(m as HostToTask));
process.on('disconnect', () => process.exit(0));
// Ctrl-C on a terminal signals the whole process group: the host decides (savepoint, then close).
process.on('SIGINT', () => undefined);
process.on('SIGTERM', () => undefined);
process.on('uncaughtException', (e) => runtime.fail(e));
process.on('unhandledRejection', (e) => runtime.fail(e));
