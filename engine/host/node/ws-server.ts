/**
 * The host API over a WebSocket at `/ws` of an HTTP server: every upgrade is checked by
 * serve-auth.ts (token, Host, Origin) before a session starts; refused upgrades get a plain 403 and
 * the socket is closed. One RPC session (rpc-server.ts) per socket.
 */
import type { Server, IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { EngineHost } from '../common/api.ts';
import { serveHost } from '../common/rpc-server.ts';
import { checkRequest, type ServeAuth } from './serve-auth.ts';

const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
/** A client that stops reading must not make the server buffer events without bound. */
const MAX_BUFFERED_BYTES = 32 * 1024 * 1024;

export interface HostSocketServer {
  readonly clients: number;
  close(): Promise<void>;
}

export function attachHostSocket(server: Server, host: EngineHost, auth: ServeAuth, path = '/ws'): HostSocketServer {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  const sockets = new Set<WebSocket>();

  function refuse(socket: Duplex, status: number, reason: string): void {
    const text = `${reason}\n`;
    socket.end(
      `HTTP/1.1 ${status} ${status === 403 ? 'Forbidden' : status === 404 ? 'Not Found' : 'Misdirected Request'}\r\n` +
        `Connection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
    );
  }

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== path) return refuse(socket, 404, 'no such socket');
    const verdict = checkRequest(auth, req);
    if (!verdict.ok) return refuse(socket, verdict.status, verdict.reason);
    wss.handleUpgrade(req, socket, head, (ws) => {
      sockets.add(ws);
      const session = serveHost(host, (text) => {
        if (ws.readyState !== ws.OPEN) return;
        if (ws.bufferedAmount > MAX_BUFFERED_BYTES) {
          ws.close(1013, 'client too slow');
          return;
        }
        ws.send(text);
      });
      ws.on('message', (data, isBinary) => {
        if (isBinary) {
          ws.close(1003, 'text frames only');
          return;
        }
        void session.receive(data.toString());
      });
      ws.on('close', () => {
        sockets.delete(ws);
        session.close();
      });
      ws.on('error', () => ws.terminate());
    });
  });

  return {
    get clients() {
      return sockets.size;
    },
    close: () =>
      new Promise((resolve) => {
        for (const ws of sockets) ws.terminate();
        wss.close(() => resolve());
      }),
  };
}
