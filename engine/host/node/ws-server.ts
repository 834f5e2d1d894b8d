/**
 * The host API over a WebSocket at `/ws` of an HTTP server: every upgrade is checked by
 * serve-auth.ts (token, Host, Origin) before a session starts; refused upgrades get a plain 403 and
 * the socket is closed. One RPC session (rpc-server.ts) per socket.
 *
 * Nothing a client sends may throw out of here (see serve-auth.ts): a bad target is a 400, a
 * socket reset before or after the handshake is dropped, malformed frames are `ws`'s to refuse
 * (it closes with 1002/1007/1009), and a message the session cannot handle is answered or ignored.
 */
import type { Server, IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { EngineHost } from '../common/api.ts';
import { serveHost } from '../common/rpc-server.ts';
import { checkRequest, requestUrl, type ServeAuth } from './serve-auth.ts';

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  403: 'Forbidden',
  404: 'Not Found',
  421: 'Misdirected Request',
};
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
      `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? 'Error'}\r\n` +
        `Connection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
    );
  }

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // An upgrade socket has no error listener of Node's: a reset would be an uncaught 'error'.
    socket.on('error', () => socket.destroy());
    try {
      upgrade(req, socket, head);
    } catch {
      socket.destroy();
    }
  });

  function upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = requestUrl(req);
    if (!url) return refuse(socket, 400, 'malformed request target');
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
        session.receive(data.toString()).catch(() => ws.close(1011, 'internal error'));
      });
      ws.on('close', () => {
        sockets.delete(ws);
        session.close();
      });
      ws.on('error', () => ws.terminate());
    });
  }

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
