/**
 * The host API over Electron IPC: the same protocol text and the same `serveHost` session as the
 * WebSocket (engine/host/common/rpc-server.ts), behind one guard. Every call is checked before
 * the session sees it:
 * - the sender is the top frame of one of our windows, showing our own app URL (`app://weir/`):
 *   never a subframe, a navigated-away page or another window;
 * - then the session parses it like any transport's message: a known method with params that
 *   pass the protocol schema, or `invalid_request` naming the field.
 * A call is an `invoke` whose answer is the `result`/`error` message; events go to the window as
 * `events` messages.
 *
 * Its types are picked from Electron's own typings, so main.ts hands it the real ipcMain and
 * tests drive it with a stub (no Electron binary).
 */
import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import type { EngineHost } from '../engine/host/common/api.ts';
import { IPC_CALL_CHANNEL, IPC_EVENT_CHANNEL } from '../engine/host/common/ipc-channels.ts';
import { serveHost, type RpcServerSession } from '../engine/host/common/rpc-server.ts';

export const APP_ORIGIN = 'app://weir';

export type InvokeEvent = Pick<IpcMainInvokeEvent, 'sender' | 'senderFrame'>;

/** The part of Electron's ipcMain used here (tests pass a stub). */
export type IpcMainLike = Pick<IpcMain, 'handle' | 'removeHandler'>;

/** Where events go: our window's webContents. */
export type EventTarget = Pick<WebContents, 'isDestroyed' | 'send'>;

export interface GuardOptions {
  /** The webContents ids of our windows; a sender outside this set is refused. */
  isOurWebContents(id: number): boolean;
  /** Origin our pages load from (default `app://weir`). */
  origin?: string;
}

/** Why a sender is refused, or null when it is our app's top frame. */
export function senderProblem(event: InvokeEvent, opts: GuardOptions): string | null {
  const frame = event.senderFrame;
  if (!frame) return 'the sending frame is gone';
  if (frame.parent !== null) return 'requests from subframes are refused';
  if (!opts.isOurWebContents(event.sender.id)) return 'the sender is not a Weir window';
  let url: URL;
  try {
    url = new URL(frame.url);
  } catch {
    return 'the sender has no valid URL';
  }
  const origin = opts.origin ?? APP_ORIGIN;
  if (`${url.protocol}//${url.host}` !== origin) return `requests from ${url.protocol}//${url.host} are refused`;
  return null;
}

/** The `error` message for a refused sender, answering the call's id when it has one. */
function refusal(text: unknown, message: string): string {
  let id: number | null = null;
  try {
    const raw = typeof text === 'string' ? (JSON.parse(text) as { id?: unknown }) : null;
    if (typeof raw?.id === 'number') id = raw.id;
  } catch {
    /* not JSON: the error has no id */
  }
  return JSON.stringify({ kind: 'error', id, error: { code: 'invalid_request', message } });
}

/** Answers one `invoke(IPC_CALL_CHANNEL, text)`: the guard, then the session. Exported for tests. */
export function handleCall(
  session: RpcServerSession,
  opts: GuardOptions,
  event: InvokeEvent,
  text: unknown,
): Promise<string | null> {
  const problem = senderProblem(event, opts);
  if (problem) return Promise.resolve(refusal(text, `refused: ${problem}`));
  if (typeof text !== 'string') return Promise.resolve(refusal(null, 'message is not text'));
  // The session answers every call once; null only when it was closed meanwhile (shutdown).
  return new Promise((resolve) => {
    void session.receive(text, resolve).finally(() => resolve(null));
  });
}

/**
 * Serves `host` to our window: registers the call handler and forwards host events (those of one
 * tick in one message) to `target()`. Returns the removal of both.
 */
export function serveHostOverIpc(
  ipcMain: IpcMainLike,
  host: EngineHost,
  opts: GuardOptions & { target(): EventTarget | null },
): () => void {
  const session = serveHost(host, (text) => {
    const t = opts.target();
    if (t && !t.isDestroyed()) t.send(IPC_EVENT_CHANNEL, text);
  });
  ipcMain.handle(IPC_CALL_CHANNEL, (event, text) => handleCall(session, opts, event, text));
  return () => {
    ipcMain.removeHandler(IPC_CALL_CHANNEL);
    session.close();
  };
}
