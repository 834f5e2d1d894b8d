/**
 * The renderer's single connection to the engine: Electron's `window.weir` when present,
 * otherwise the WebSocket of the `weir serve` process that served this page (token from the URL).
 * Everything else in the renderer receives the `EngineHost` from here.
 */
import type { EngineHost, HostInfo } from '../../engine/host/common/api.ts';
import { connectPageHost } from '../../engine/host/browser/page-host.ts';

let hostPromise: Promise<EngineHost> | null = null;
let current: EngineHost | null = null;
let info: HostInfo | null = null;

export function connect(): Promise<EngineHost> {
  hostPromise ??= connectPageHost().then(async (h) => {
    current = h;
    try {
      info = await h.hostInfo({});
    } catch {
      info = null;
    }
    return h;
  });
  return hostPromise;
}

/** The connected host; throws before `connect()` resolved (the app renders only after). */
export function host(): EngineHost {
  if (!current) throw new Error('host not connected yet');
  return current;
}

export function hostInfo(): HostInfo | null {
  return info;
}

/** For tests and the in-memory harness: use a given host instead of connecting. */
export function useHostForTesting(h: EngineHost, i: HostInfo | null = null): void {
  current = h;
  info = i;
  hostPromise = Promise.resolve(h);
}
