/**
 * The host API suites over Electron IPC, as the desktop app wires it but without the Electron
 * binary: a stubbed ipcMain with the real guard and `serveHost` (`serveHostOverIpc`), the page's
 * `createRpcClient` (`hostFromBridge`) on a bridge that does what electron/preload.ts does
 * (invoke with the call text, hand every answer and event to the page), asynchronously like IPC.
 * Whatever carries the calls, the UI sees the same results, errors and events.
 */
import type { IpcMainInvokeEvent } from 'electron';
import { hostFromBridge } from '../../engine/host/browser/window-api.ts';
import type { LocalHost } from '../../engine/host/node/local-host.ts';
import { serveHostOverIpc, type IpcMainLike } from '../../electron/ipc-guard.ts';
import { IPC_CALL_CHANNEL } from '../../engine/host/common/ipc-channels.ts';
import { defineHostApiSuite, type Connected } from '../engine/host/host-api-suite.ts';
import { defineHostLiveSuite } from '../engine/host/host-live-suite.ts';

type Handler = Parameters<IpcMainLike['handle']>[1];
const WINDOW_ID = 3;
/** What Electron reports for a call from our window's top frame. */
const OUR_FRAME = {
  sender: { id: WINDOW_ID },
  senderFrame: { url: 'app://weir/index.html', parent: null },
} as unknown as IpcMainInvokeEvent;

async function overIpc(host: LocalHost): Promise<Connected> {
  const handlers = new Map<string, Handler>();
  const ipcMain = {
    handle: (channel: string, listener: Handler) => void handlers.set(channel, listener),
    removeHandler: (channel: string) => void handlers.delete(channel),
  } as unknown as IpcMainLike;
  const listeners = new Set<(text: string) => void>();
  const deliver = (text: unknown) => {
    if (typeof text === 'string') setImmediate(() => listeners.forEach((l) => l(text)));
  };
  let closed = false;
  const stop = serveHostOverIpc(ipcMain, host, {
    isOurWebContents: (id) => id === WINDOW_ID,
    target: () => ({ isDestroyed: () => closed, send: (_channel: string, text: unknown) => deliver(text) }),
  });
  const client = hostFromBridge({
    send(text) {
      const handler = handlers.get(IPC_CALL_CHANNEL);
      if (!handler) throw new Error('the IPC handler is gone');
      setImmediate(() => void Promise.resolve(handler(OUR_FRAME, text)).then(deliver));
    },
    onMessage(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  });
  return {
    client,
    close() {
      closed = true;
      stop();
    },
  };
}

defineHostApiSuite('Electron IPC (stubbed ipcMain, preload-shaped bridge)', overIpc);
defineHostLiveSuite('Electron IPC (stubbed ipcMain, preload-shaped bridge)', overIpc);
