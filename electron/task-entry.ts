/**
 * The task process entry inside Electron (bundled to dist/electron/task.cjs and started by
 * utility-launcher.ts). The runtime's task-main.ts speaks over `process.send` / `'message'` as a
 * forked child does; a utilityProcess has `process.parentPort` instead, so this bridges the two
 * before task-main loads.
 */
interface ParentPort {
  on(event: 'message', listener: (e: { data: unknown }) => void): void;
  postMessage(message: unknown): void;
}

const port = (process as unknown as { parentPort?: ParentPort }).parentPort;
if (port) {
  const proc = process as unknown as {
    send(m: unknown): boolean;
    connected: boolean;
    emit(event: string, ...args: unknown[]): boolean;
  };
  proc.send = (message: unknown) => {
    port.postMessage(message);
    return true;
  };
  proc.connected = true;
  port.on('message', (e) => {
    proc.emit('message', e.data);
  });
}

// Loaded after the bridge exists: task-main checks for `process.send` when it starts.
void import('../engine/runtime/task/task-main.ts');
