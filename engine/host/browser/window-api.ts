/**
 * `window.weir`: the message port the Electron preload exposes (see electron/preload.ts), and the
 * `EngineHost` the page builds on it. Browser-safe; the renderer imports `hostFromWindow()` from
 * here (or `connectPageHost()` from page-host.ts, which picks Electron or `weir serve` by itself).
 *
 * The port moves the host protocol's JSON text and nothing else, so Electron uses the same
 * `createRpcClient` as the WebSocket: results and events are validated on the page side, and
 * failures arrive as `HostError`s with their code on both transports.
 */
import type { EngineHost } from '../common/api.ts';
import { createRpcClient } from '../common/rpc-client.ts';

/** What the preload puts on `window.weir`. */
export interface WeirBridge {
  /** One `call` message (JSON text); its answer arrives through `onMessage`. */
  send(text: string): void;
  /** Every message from the host: answers and `events`; returns an unsubscribe function. */
  onMessage(listener: (text: string) => void): () => void;
}

declare global {
  interface Window {
    weir?: WeirBridge;
  }
}

/** The host behind a bridge (Electron's `window.weir`, or a test's). */
export function hostFromBridge(bridge: WeirBridge): EngineHost {
  const rpc = createRpcClient((text) => bridge.send(text));
  bridge.onMessage((text) => rpc.receive(text));
  return rpc.host;
}

/** The Electron host, or null outside Electron. */
export function hostFromWindow(): EngineHost | null {
  const bridge = (globalThis as { weir?: WeirBridge }).weir;
  return bridge ? hostFromBridge(bridge) : null;
}
