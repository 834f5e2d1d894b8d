/**
 * `window.weir`: the host API as the Electron preload exposes it (see electron/preload.ts).
 * Browser-safe; the renderer imports `hostFromWindow()` from here (or `connectPageHost()` from
 * page-host.ts, which picks Electron or `weir serve` by itself).
 *
 * contextBridge copies rejected Errors as bare messages, so the preload rejects with the plain
 * `{ code, message, problems? }` shape instead; `hostFromWindow()` turns those back into
 * `HostError`s, so renderer code sees the same errors on both transports.
 */
import type { EngineHost } from '../common/api.ts';
import { toHostError } from '../common/errors.ts';
import { HOST_METHODS } from '../common/protocol.ts';

/** What the preload puts on `window.weir`: every EngineHost method, same names and shapes. */
export type WeirBridge = EngineHost;

declare global {
  interface Window {
    weir?: WeirBridge;
  }
}

/** The Electron host, or null outside Electron. */
export function hostFromWindow(): EngineHost | null {
  const bridge = (globalThis as { weir?: WeirBridge }).weir;
  if (!bridge) return null;
  const host = Object.fromEntries(
    HOST_METHODS.map((method) => [
      method,
      (params: unknown) =>
        (bridge[method] as (p: unknown) => Promise<unknown>)(params ?? {}).catch((e: unknown) => {
          throw toHostError(e);
        }),
    ]),
  ) as unknown as EngineHost;
  host.onEvent = (listener) => bridge.onEvent(listener);
  return host;
}
