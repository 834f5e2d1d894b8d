/**
 * The preload: puts exactly the host API on `window.weir` (see engine/host/window-api.ts) and
 * nothing else; `ipcRenderer` itself never reaches the page. Runs sandboxed, so it is bundled into
 * one CommonJS file whose only require is 'electron'.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type { HostEvent } from '../engine/host/common/api.ts';
import {
  HOST_METHOD_NAMES,
  IPC_CALL_CHANNEL,
  IPC_EVENT_CHANNEL,
  type IpcReply,
} from '../engine/host/common/methods.ts';

const api: Record<string, unknown> = {};
for (const method of HOST_METHOD_NAMES) {
  api[method] = async (params: unknown) => {
    const reply = (await ipcRenderer.invoke(IPC_CALL_CHANNEL, method, params ?? {})) as IpcReply;
    if (reply.ok) return reply.result ?? undefined;
    // A plain object survives contextBridge with its code; hostFromWindow() rebuilds a HostError.
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- see above: an Error would lose its code
    throw { code: reply.error.code, message: reply.error.message, problems: reply.error.problems };
  };
}
api.onEvent = (listener: (event: HostEvent) => void) => {
  const handler = (_e: IpcRendererEvent, events: HostEvent[]) => {
    for (const event of events) listener(event);
  };
  ipcRenderer.on(IPC_EVENT_CHANNEL, handler);
  return () => {
    ipcRenderer.removeListener(IPC_EVENT_CHANNEL, handler);
  };
};

contextBridge.exposeInMainWorld('weir', api);
