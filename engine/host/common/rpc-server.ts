/**
 * The server end of the host protocol, independent of the transport: parses and validates each
 * `call` message, invokes the host, answers with `result` or `error`, and forwards host events
 * (events emitted in the same tick go out as one `events` message). Browser-safe apart from what
 * the host itself does.
 */
import type { EngineHost, HostEvent } from './api.ts';
import { HostError, errorShape } from './errors.ts';
import { parseCall, parseParams } from './protocol.ts';

export interface RpcServerSession {
  /** Feed one message (JSON text) received from the client. */
  receive(text: string): Promise<void>;
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

  async function receive(text: string): Promise<void> {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      safeSend(
        JSON.stringify({ kind: 'error', id: null, error: { code: 'invalid_request', message: 'message is not JSON' } }),
      );
      return;
    }
    const call = parseCall(raw);
    if (!call.ok) {
      const id = typeof (raw as { id?: unknown })?.id === 'number' ? (raw as { id: number }).id : null;
      safeSend(JSON.stringify({ kind: 'error', id, error: { code: 'invalid_request', message: call.message } }));
      return;
    }
    const { id, method, params } = call.value;
    const parsed = parseParams(method, params);
    if (!parsed.ok) {
      safeSend(
        JSON.stringify({
          kind: 'error',
          id,
          error: { code: 'invalid_request', message: `${method}: ${parsed.message}` },
        }),
      );
      return;
    }
    try {
      const result = await (host[method] as (p: unknown) => Promise<unknown>)(parsed.value);
      safeSend(JSON.stringify({ kind: 'result', id, result: result ?? null }));
    } catch (err) {
      safeSend(JSON.stringify({ kind: 'error', id, error: errorShape(err) }));
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
