/**
 * The renderer's single connection to the engine. The entry (app/main.tsx) connects with
 * `connectPageHost()` (Electron's `window.weir`, else the WebSocket of the `weir serve` process
 * that served this page) and attaches the host here; everything else in the renderer reads it
 * from here. Tests attach their own host through the same call.
 */
import type { EngineHost, HostInfo } from '../../engine/host/common/api.ts';

let current: EngineHost | null = null;
let info: HostInfo | null = null;

/** Makes `h` the renderer's host, with its `hostInfo` (null when it cannot say). */
export async function attachHost(h: EngineHost): Promise<EngineHost> {
  let i: HostInfo | null;
  try {
    i = await h.hostInfo({});
  } catch {
    i = null;
  }
  current = h;
  info = i;
  return h;
}

/** The attached host; throws before `attachHost()` resolved (the app renders only after). */
export function host(): EngineHost {
  if (!current) throw new Error('host not connected yet');
  return current;
}

export function hostInfo(): HostInfo | null {
  return info;
}
