/**
 * The only IPC entry into the main process. Every call is checked before the host sees it:
 * - the sender is the top frame of one of our windows, showing our own app URL (`app://weir/`):
 *   never a subframe, a navigated-away page or another window;
 * - the method is a host method and its params pass the protocol schema (`invalid_request`).
 * Replies are plain `{ ok, result | error }` data: thrown Errors would lose their code over IPC.
 *
 * Uses structural types only, so tests drive it with a stubbed ipcMain (no Electron binary).
 */
import type { IpcMainInvokeEvent } from 'electron';
import type { EngineHost, HostEvent } from '../engine/host/common/api.ts';
import { errorShape } from '../engine/host/common/errors.ts';
import { IPC_CALL_CHANNEL, IPC_EVENT_CHANNEL, type IpcReply } from '../engine/host/common/methods.ts';
import { isHostMethod, parseParams } from '../engine/host/common/protocol.ts';

export const APP_ORIGIN = 'app://weir';

export type InvokeEvent = Pick<IpcMainInvokeEvent, 'sender' | 'senderFrame'>;

export interface IpcMainLike {
  handle(channel: string, listener: (event: InvokeEvent, ...args: unknown[]) => Promise<unknown> | unknown): void;
  removeHandler(channel: string): void;
}

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

function refuse(code: 'invalid_request', message: string): IpcReply {
  return { ok: false, error: { code, message } };
}

/** Handles one `invoke(IPC_CALL_CHANNEL, method, params)`. Exported for tests. */
export async function handleCall(
  host: EngineHost,
  opts: GuardOptions,
  event: InvokeEvent,
  method: unknown,
  params: unknown,
): Promise<IpcReply> {
  const problem = senderProblem(event, opts);
  if (problem) return refuse('invalid_request', `refused: ${problem}`);
  if (!isHostMethod(method)) return refuse('invalid_request', `unknown method '${String(method).slice(0, 60)}'`);
  const parsed = parseParams(method, params);
  if (!parsed.ok) return refuse('invalid_request', `${method}: ${parsed.message}`);
  try {
    const result = await (host[method] as (p: unknown) => Promise<unknown>)(parsed.value);
    return { ok: true, result: result ?? null };
  } catch (err) {
    return { ok: false, error: errorShape(err) };
  }
}

/** Registers the call handler; returns its removal. */
export function registerHostIpc(ipcMain: IpcMainLike, host: EngineHost, opts: GuardOptions): () => void {
  ipcMain.handle(IPC_CALL_CHANNEL, (event, method, params) => handleCall(host, opts, event, method, params));
  return () => ipcMain.removeHandler(IPC_CALL_CHANNEL);
}

export interface EventTarget {
  isDestroyed(): boolean;
  send(channel: string, ...args: unknown[]): void;
}

/** Forwards host events to a window, events of one tick in one message. */
export function forwardEvents(host: EngineHost, target: () => EventTarget | null): () => void {
  let batch: HostEvent[] = [];
  return host.onEvent((event) => {
    batch.push(event);
    if (batch.length > 1) return;
    queueMicrotask(() => {
      const events = batch;
      batch = [];
      const t = target();
      if (t && !t.isDestroyed()) t.send(IPC_EVENT_CHANNEL, events);
    });
  });
}
