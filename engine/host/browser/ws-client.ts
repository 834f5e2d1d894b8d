/**
 * `connectHost(url, token)`: the `EngineHost` of a `weir serve` process, over a WebSocket that
 * reconnects by itself. Browser-safe (uses the page's `WebSocket`; Node tests pass `ws`'s).
 *
 * Rules:
 * - The first connection must succeed, or `connectHost` rejects (wrong token, server gone): the
 *   UI shows that instead of spinning forever.
 * - After a drop it reconnects with backoff (250 ms doubling to 5 s). Calls made while
 *   disconnected wait for the next connection; calls in flight when it dropped reject with
 *   `internal: connection to Weir lost` (the host may or may not have performed them).
 * - Event listeners survive reconnects; events emitted while disconnected are lost (the next
 *   status/metrics event carries the current state).
 */
import type { EngineHost } from '../common/api.ts';
import { HostError } from '../common/errors.ts';
import { createRpcClient } from '../common/rpc-client.ts';

/** The part of the WebSocket API used here (the browser's and `ws`'s both fit). */
export interface WebSocketLike {
  readonly readyState: number;
  onopen: ((ev: unknown) => void) | null;
  onclose: ((ev: unknown) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}
export type WebSocketConstructor = new (url: string) => WebSocketLike;

export type ConnectionState = 'connecting' | 'open' | 'reconnecting' | 'closed';

export interface HostConnection extends EngineHost {
  readonly connectionState: ConnectionState;
  onConnectionChange(listener: (state: ConnectionState) => void): () => void;
  /** Close for good (no more reconnects); pending calls reject. */
  close(): void;
}

export interface ConnectOptions {
  WebSocket?: WebSocketConstructor;
  minReconnectDelay?: number;
  maxReconnectDelay?: number;
}

const OPEN = 1;

/** `url` is the socket address (`ws://127.0.0.1:4700/ws`); the token is added as `?token=`. */
export function connectHost(url: string, token: string, options: ConnectOptions = {}): Promise<HostConnection> {
  const Ctor = options.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
  if (!Ctor) return Promise.reject(new HostError('unsupported', 'no WebSocket implementation available'));
  const minDelay = options.minReconnectDelay ?? 250;
  const maxDelay = options.maxReconnectDelay ?? 5000;
  const target = `${url}${url.includes('?') ? '&' : '?'}token=${encodeURIComponent(token)}`;

  let socket: WebSocketLike | null = null;
  let state: ConnectionState = 'connecting';
  let delay = minDelay;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let outbox: string[] = [];
  const stateListeners = new Set<(s: ConnectionState) => void>();

  const rpc = createRpcClient((text) => {
    if (state === 'closed') throw new HostError('internal', 'connection to Weir closed');
    if (socket && socket.readyState === OPEN) socket.send(text);
    else outbox.push(text);
  });

  function setState(next: ConnectionState): void {
    if (state === next) return;
    state = next;
    for (const l of [...stateListeners]) l(next);
  }

  return new Promise((resolve, reject) => {
    let everOpened = false;

    function open(): void {
      const ws = new Ctor!(target);
      socket = ws;
      ws.onopen = () => {
        delay = minDelay;
        setState('open');
        const queued = outbox;
        outbox = [];
        for (const text of queued) ws.send(text);
        if (!everOpened) {
          everOpened = true;
          resolve(connection);
        }
      };
      ws.onmessage = (ev) => {
        if (typeof ev.data === 'string') rpc.receive(ev.data);
      };
      ws.onerror = () => {
        /* onclose follows and decides */
      };
      ws.onclose = () => {
        if (socket !== ws) return;
        socket = null;
        rpc.failPending(new HostError('internal', 'connection to Weir lost'));
        if (state === 'closed') return;
        if (!everOpened) {
          setState('closed');
          reject(
            new HostError('internal', `cannot connect to Weir at ${url} (is it running, and is the token right?)`),
          );
          return;
        }
        setState('reconnecting');
        timer = setTimeout(() => {
          timer = null;
          open();
        }, delay);
        delay = Math.min(delay * 2, maxDelay);
      };
    }

    const connection: HostConnection = {
      ...rpc.host,
      get connectionState() {
        return state;
      },
      onConnectionChange(listener: (s: ConnectionState) => void) {
        stateListeners.add(listener);
        return () => {
          stateListeners.delete(listener);
        };
      },
      close() {
        setState('closed');
        if (timer) clearTimeout(timer);
        timer = null;
        outbox = [];
        rpc.failPending(new HostError('internal', 'connection to Weir closed'));
        const s = socket;
        socket = null;
        s?.close(1000, 'client closed');
      },
    };

    open();
  });
}

/** The socket address of the `weir serve` that served this page (`http:` -> `ws:`). */
export function socketUrlFor(pageUrl: string): string {
  const u = new URL(pageUrl);
  return `${u.protocol === 'https:' ? 'wss:' : 'ws:'}//${u.host}/ws`;
}
