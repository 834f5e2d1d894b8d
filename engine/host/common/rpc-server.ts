/**
 * The server end of the host protocol, independent of the transport: parses and validates each
 * `call` message, invokes the host, answers with `result` or `error`, and forwards host events
 * (events emitted in the same tick go out as one `events` message). Every transport uses it: the
 * WebSocket (one session per socket), Electron IPC (one per window) and the in-memory transport.
 * Browser-safe apart from what the host itself does.
 */
import type { EngineHost, HostEvent } from './api.ts';
import { HostError, errorShape } from './errors.ts';
import { parseCall, parseParams } from './protocol.ts';

export interface RpcServerSession {
  /**
   * Feed one message (JSON text) received from the client. Its answer goes out through `send`,
   * or through `reply` when given: a transport that pairs each request with its reply (Electron's
   * `invoke`) hands the answer back to the page that asked, even after a reload.
   */
  receive(text: string, reply?: (text: string) => void): Promise<void>;
  /** Stop forwarding events; answers to calls still running are dropped. */
  close(): void;
}

export function serveHost(host: EngineHost, send: (text: string) => void): RpcServerSession {
  let closed = false;
  let batch: HostEvent[] = [];

  const safeSend = (text: string) => {
    if (closed) return;
    try {
      send(text);
    } catch {
      /* the transport is gone; its close handler ends the session */
    }
  };
  const unsubscribe = host.onEvent((event) => {
    if (closed) return;
    batch.push(event);
    if (batch.length === 1) {
      queueMicrotask(() => {
        const events = batch;
        batch = [];
        if (events.length) safeSend(JSON.stringify({ kind: 'events', events }));
      });
    }
  });

  async function receive(text: string, reply?: (text: string) => void): Promise<void> {
    const answer = (message: object) => {
      if (closed) return;
      const out = JSON.stringify(message);
      if (reply) reply(out);
      else safeSend(out);
    };
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      answer({ kind: 'error', id: null, error: { code: 'invalid_request', message: 'message is not JSON' } });
      return;
    }
    const call = parseCall(raw);
    if (!call.ok) {
      const id = typeof (raw as { id?: unknown })?.id === 'number' ? (raw as { id: number }).id : null;
      answer({ kind: 'error', id, error: { code: 'invalid_request', message: call.message } });
      return;
    }
    const { id, method, params } = call.value;
    const parsed = parseParams(method, params);
    if (!parsed.ok) {
      answer({ kind: 'error', id, error: { code: 'invalid_request', message: `${method}: ${parsed.message}` } });
      return;
    }
    try {
      const result = await (host[method] as (p: unknown) => Promise<unknown>)(parsed.value);
      answer({ kind: 'result', id, result: result ?? null });
    } catch (err) {
      answer({ kind: 'error', id, error: errorShape(err) });
    }
  }

  return {
    receive,
    close() {
      if (closed) return;
      closed = true;
      unsubscribe();
    },
  };
}

export { HostError };
