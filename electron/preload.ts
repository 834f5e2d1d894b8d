/**
 * The preload: puts a two-function message port on `window.weir` and nothing else; `ipcRenderer`
 * itself never reaches the page. It only moves the host protocol's JSON text: the page's
 * `createRpcClient` (engine/host/browser/window-api.ts) makes the calls and validates what comes
 * back, the main process's `serveHost` (ipc-guard.ts) answers them. Runs sandboxed, so it is
 * bundled into one CommonJS file whose only require is 'electron'.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { IPC_CALL_CHANNEL, IPC_EVENT_CHANNEL } from '../engine/host/common/ipc-channels.ts';

const listeners = new Set<(text: string) => void>();
const deliver = (text: unknown) => {
  if (typeof text !== 'string') return;
  for (const listener of [...listeners]) listener(text);
};
ipcRenderer.on(IPC_EVENT_CHANNEL, (_e: IpcRendererEvent, text: unknown) => deliver(text));

contextBridge.exposeInMainWorld('weir', {
  /** One `call` message; its answer arrives through `onMessage` like every other message. */
  send(text: string): void {
    if (typeof text !== 'string') throw new TypeError('weir.send takes the protocol text');
    ipcRenderer.invoke(IPC_CALL_CHANNEL, text).then(deliver, (err: unknown) => {
      // The main process never rejects; if IPC itself fails, the call still gets its answer.
      const id = (JSON.parse(text) as { id?: unknown }).id;
      const message = `IPC to Weir failed: ${err instanceof Error ? err.message : String(err)}`;
      deliver(
        JSON.stringify({ kind: 'error', id: typeof id === 'number' ? id : null, error: { code: 'internal', message } }),
      );
    });
  },
  onMessage(listener: (text: string) => void): () => void {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  },
});
