/**
 * `connectPageHost()`: the renderer's one way to reach the engine. In Electron it is the preload's
 * `window.weir`; in a browser served by `weir serve` it is the WebSocket of the server that served
 * the page, authenticated with the `?token=` of the page's address. Browser-safe.
 */
import type { EngineHost } from '../common/api.ts';
import { HostError } from '../common/errors.ts';
import { hostFromWindow } from './window-api.ts';
import { connectHost, socketUrlFor } from './ws-client.ts';

export async function connectPageHost(): Promise<EngineHost> {
  const fromWindow = hostFromWindow();
  if (fromWindow) return fromWindow;
  const loc = (globalThis as { location?: { href: string } }).location;
  if (!loc) throw new HostError('unsupported', 'no page location: not running in a browser');
  const token = new URL(loc.href).searchParams.get('token') ?? '';
  return connectHost(socketUrlFor(loc.href), token);
}
