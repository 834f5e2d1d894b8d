/**
 * The client end of the host protocol, independent of the transport: turns `EngineHost` calls
 * into `call` messages and `result`/`error`/`events` messages back into promises and listeners.
 * Results and events are validated on arrival (a server that drifted from the contract fails
 * loudly instead of handing the UI malformed data). Browser-safe.
 */
import type { EngineHost, HostEvent, HostMethod } from './api.ts';
import { HostError } from './errors.ts';
import { HOST_METHODS, parseEvent, parseResult, parseServerMessage } from './protocol.ts';

export interface RpcClient {
  readonly host: EngineHost;
  /** Feed one message (JSON text) received from the server. */
  receive(text: string): void;
  /** The connection is gone: reject every call still waiting for an answer. */
  failPending(error: HostError): void;
  readonly pendingCount: number;
}

interface Pending {
  method: HostMethod;
  resolve(value: unknown): void;
  reject(error: HostError): void;
}

/** `send` may throw (e.g. socket closed); the call then rejects with that error. */
export function createRpcClient(
  send: (text: string) => void,
  opts: { onProtocolError?: (message: string) => void } = {},
): RpcClient {
  let nextId = 1;
  const pending = new Map<number, Pending>();
  const listeners = new Set<(event: HostEvent) => void>();
  const protocolError = opts.onProtocolError ?? ((m: string) => console.warn(`[weir host] ${m}`));

  function call(method: HostMethod, params: unknown): Promise<unknown> {
    const id = nextId++;
    return new Promise((resolve, reject) => {
      pending.set(id, { method, resolve, reject });
      try {
        send(JSON.stringify({ kind: 'call', id, method, params: params ?? {} }));
      } catch (err) {
        pending.delete(id);
        reject(
          err instanceof HostError
            ? err
            : new HostError('internal', `cannot send '${method}': ${(err as Error).message}`),
        );
      }
    });
  }

  function receive(text: string): void {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      protocolError('server sent a message that is not JSON');
      return;
    }
    const msg = parseServerMessage(raw);
    if (!msg.ok) return protocolError(msg.message);
    const m = msg.value;
    if (m.kind === 'events') {
      for (const e of m.events) {
        const ev = parseEvent(e);
        if (!ev.ok) {
          protocolError(ev.message);
          continue;
        }
        for (const l of [...listeners]) {
          try {
            l(ev.value);
          } catch (err) {
            protocolError(`event listener threw: ${(err as Error).message}`);
          }
        }
      }
      return;
    }
    if (m.id === null) {
      if (m.kind === 'error') protocolError(`server refused a message: ${m.error.message}`);
      return;
    }
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (m.kind === 'error') {
      p.reject(new HostError(m.error.code, m.error.message, m.error.problems));
      return;
    }
    const r = parseResult(p.method, m.result);
    if (r.ok) p.resolve(r.value);
    else p.reject(new HostError('internal', `malformed answer from host: ${r.message}`));
  }

  const host = Object.fromEntries(
    HOST_METHODS.map((method) => [method, (params: unknown) => call(method, params)]),
  ) as unknown as EngineHost;
  host.onEvent = (listener) => {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  };

  return {
    host,
    receive,
    failPending(error) {
      const all = [...pending.values()];
      pending.clear();
      for (const p of all) p.reject(error);
    },
    get pendingCount() {
      return pending.size;
    },
  };
}
