/**
 * The `weir serve` web server: the built renderer and the host socket, on 127.0.0.1 only, every
 * request checked by serve-auth.ts. The page's address carries the token; the first page load
 * turns it into an HttpOnly cookie so the page's scripts and styles load without it.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { promises as fs } from 'node:fs';
import { extname, join, normalize, resolve, sep } from 'node:path';
import type { EngineHost } from '../common/api.ts';
import { checkRequest, createServeAuth, tokenCookie, type ServeAuth } from './serve-auth.ts';
import { attachHostSocket } from './ws-server.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.map': 'application/json',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
};

export interface WebServer {
  readonly port: number;
  readonly token: string;
  /** `http://127.0.0.1:PORT/?token=...` */
  readonly url: string;
  close(): Promise<void>;
}

export interface WebServerOptions {
  host: EngineHost;
  /** Folder holding the built renderer (`index.html` and assets). */
  rendererDir: string;
  port?: number;
  auth?: ServeAuth;
}

function securityHeaders(port: number): Record<string, string> {
  const self = `http://127.0.0.1:${port} http://localhost:${port}`;
  return {
    'Content-Security-Policy': [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: blob:",
      "font-src 'self' data:",
      `connect-src 'self' ${self.replace(/http:/g, 'ws:')}`,
      "object-src 'none'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
      "form-action 'none'",
    ].join('; '),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
  };
}

function send(res: ServerResponse, status: number, body: string | Buffer, headers: Record<string, string>): void {
  res.writeHead(status, { 'Content-Length': String(Buffer.byteLength(body)), ...headers });
  res.end(body);
}

export async function startWebServer(opts: WebServerOptions): Promise<WebServer> {
  const auth = opts.auth ?? createServeAuth();
  const root = resolve(opts.rendererDir);

  async function serveFile(req: IncomingMessage, res: ServerResponse, url: URL, setCookie: boolean): Promise<void> {
    const headers = securityHeaders(auth.port);
    if (setCookie) headers['Set-Cookie'] = tokenCookie(auth);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return send(res, 405, 'method not allowed\n', {
        ...headers,
        'Content-Type': 'text/plain; charset=utf-8',
        Allow: 'GET, HEAD',
      });
    }
    let pathname: string;
    try {
      pathname = decodeURIComponent(url.pathname);
    } catch {
      return send(res, 400, 'bad path\n', { ...headers, 'Content-Type': 'text/plain; charset=utf-8' });
    }
    const rel = normalize(pathname === '/' ? 'index.html' : pathname.slice(1));
    const file = join(root, rel);
    if (rel.includes('\0') || (file !== root && !file.startsWith(root + sep))) {
      return send(res, 404, 'not found\n', { ...headers, 'Content-Type': 'text/plain; charset=utf-8' });
    }
    try {
      const body = await fs.readFile(file);
      const isHtml = extname(file) === '.html';
      send(res, 200, req.method === 'HEAD' ? '' : body, {
        ...headers,
        'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
        'Cache-Control': isHtml ? 'no-store' : 'private, max-age=3600',
      });
    } catch {
      if (pathname === '/') {
        return send(res, 503, 'The Weir renderer is not built: run `npm run build`, then restart `weir serve`.\n', {
          ...headers,
          'Content-Type': 'text/plain; charset=utf-8',
        });
      }
      send(res, 404, 'not found\n', { ...headers, 'Content-Type': 'text/plain; charset=utf-8' });
    }
  }

  const failed = (res: ServerResponse) => {
    if (!res.headersSent) send(res, 500, 'internal error\n', { 'Content-Type': 'text/plain; charset=utf-8' });
    else res.destroy();
  };
  const server = createServer((req, res) => {
    // serve-auth.ts parses without throwing; this catch is the last wall: one request, whatever it
    // holds, must never take the server (and every run it hosts) down.
    try {
      const verdict = checkRequest(auth, req);
      if (!verdict.ok) {
        send(res, verdict.status, `${verdict.reason}\n`, {
          'Content-Type': 'text/plain; charset=utf-8',
          'Cache-Control': 'no-store',
          'X-Content-Type-Options': 'nosniff',
        });
        return;
      }
      serveFile(req, res, verdict.url, verdict.via === 'query').catch(() => failed(res));
    } catch {
      failed(res);
    }
  });
  server.headersTimeout = 20_000;
  server.requestTimeout = 60_000;
  const sockets = attachHostSocket(server, opts.host, auth);

  await new Promise<void>((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolvePromise();
    });
  });
  const address = server.address();
  auth.port = typeof address === 'object' && address ? address.port : 0;

  return {
    port: auth.port,
    token: auth.token,
    url: `http://127.0.0.1:${auth.port}/?token=${auth.token}`,
    async close() {
      await sockets.close();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
