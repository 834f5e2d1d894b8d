/**
 * An in-memory transport: client and server ends of the host protocol in one process, carrying
 * JSON text through the full serialize/validate path (what the WebSocket and IPC carry), with
 * asynchronous delivery like a real connection. For tests and for embedding the engine without a
 * socket.
 */
import type { EngineHost } from './api.ts';
import { HostError } from './errors.ts';
import { createRpcClient } from './rpc-client.ts';
import { serveHost } from './rpc-server.ts';

export interface MemoryTransport {
  readonly client: EngineHost;
  /** Messages carried so far in each direction (tests assert batching with these). */
  readonly stats: { toServer: number; toClient: number };
  close(): void;
}

export function createMemoryTransport(host: EngineHost): MemoryTransport {
  let closed = false;
  const stats = { toServer: 0, toClient: 0 };
  const rpc = createRpcClient((text) => {
    if (closed) throw new HostError('internal', 'connection to Weir closed');
    stats.toServer++;
    setImmediate(() => {
      if (!closed) void session.receive(text);
    });
  });
  const session = serveHost(host, (text) => {
    stats.toClient++;
    setImmediate(() => {
      if (!closed) rpc.receive(text);
    });
  });
  return {
    client: rpc.host,
    stats,
    close() {
      if (closed) return;
      closed = true;
      session.close();
      rpc.failPending(new HostError('internal', 'connection to Weir closed'));
    },
  };
}
