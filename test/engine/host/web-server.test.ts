/**
 * `weir serve`'s guards: the token on every HTTP request and socket, our own Host and Origin only,
 * no file outside the renderer folder, malformed socket messages answered with invalid_request.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { promises as fs, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { createLocalHost, type LocalHost } from '../../../engine/host/node/local-host.ts';
import { startWebServer, type WebServer } from '../../../engine/host/node/web-server.ts';
import { EXAMPLES_DIR } from './host-api-suite.ts';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function get(port: number, path: string, headers: Record<string, string> = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, headers: { host: `127.0.0.1:${port}`, ...headers } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c) => {
          body += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** Resolves with 'open' or the HTTP status the upgrade was refused with. */
function trySocket(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ outcome: 'open' | number; ws: WebSocket }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { headers });
    ws.once('open', () => resolve({ outcome: 'open', ws }));
    ws.once('unexpected-response', (_req, res) => {
      resolve({ outcome: res.statusCode ?? 0, ws });
      ws.terminate();
    });
    ws.once('error', () => resolve({ outcome: -1, ws }));
  });
}

describe('weir serve web server', () => {
  let dir: string;
  let workspace: string;
  let host: LocalHost;
  let server: WebServer;

  before(async () => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'weir-web-')));
    workspace = join(dir, 'ws');
    await fs.mkdir(join(dir, 'renderer', 'assets'), { recursive: true });
    await fs.mkdir(workspace);
    await fs.writeFile(join(dir, 'renderer', 'index.html'), '<!doctype html><title>Weir</title>');
    await fs.writeFile(join(dir, 'renderer', 'assets', 'app.js'), 'console.log(1)');
    await fs.writeFile(join(dir, 'secret.txt'), 'secret');
    host = createLocalHost({ workspace, examplesDir: EXAMPLES_DIR, transport: 'websocket' });
    server = await startWebServer({ host, rendererDir: join(dir, 'renderer'), port: 0 });
  });
  after(async () => {
    await server.close();
    await host.dispose();
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('prints an address on 127.0.0.1 with a long random token', () => {
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{32}$/);
    assert.ok(server.port > 0);
  });

  it('refuses HTTP requests without the right token', async () => {
    assert.equal((await get(server.port, '/')).status, 403);
    assert.equal((await get(server.port, '/assets/app.js')).status, 403);
    assert.equal((await get(server.port, '/?token=wrong')).status, 403);
    assert.equal((await get(server.port, `/?token=${server.token}x`)).status, 403);
  });

  it('serves the page with the token, then assets with the cookie it set', async () => {
    const page = await get(server.port, `/?token=${server.token}`);
    assert.equal(page.status, 200);
    assert.match(page.body, /<title>Weir<\/title>/);
    assert.match(String(page.headers['content-security-policy']), /default-src 'self'/);
    assert.equal(page.headers['referrer-policy'], 'no-referrer');
    const cookie = String(page.headers['set-cookie']).split(';')[0];
    assert.match(String(page.headers['set-cookie']), /HttpOnly; SameSite=Strict/);
    const asset = await get(server.port, '/assets/app.js', { cookie });
    assert.equal(asset.status, 200);
    assert.match(String(asset.headers['content-type']), /javascript/);
    assert.equal((await get(server.port, '/assets/app.js', { cookie: cookie.replace(/=.*/, '=forged') })).status, 403);
  });

  it('refuses other origins and other Host names even with the token', async () => {
    const t = `/?token=${server.token}`;
    assert.equal((await get(server.port, t, { origin: 'http://evil.example' })).status, 403);
    assert.equal((await get(server.port, t, { origin: `http://127.0.0.1:${server.port + 1}` })).status, 403);
    assert.equal((await get(server.port, t, { host: `evil.example:${server.port}` })).status, 421);
    assert.equal(
      (await get(server.port, t, { origin: `http://localhost:${server.port}`, host: `localhost:${server.port}` }))
        .status,
      200,
    );
  });

  it('never serves a file outside the renderer folder', async () => {
    const c = `/?token=${server.token}`;
    await get(server.port, c);
    for (const p of ['/../secret.txt', '/%2e%2e/secret.txt', '/assets/..%2f..%2fsecret.txt', '/%00']) {
      const r = await get(server.port, `${p}?token=${server.token}`);
      assert.ok(r.status === 404 || r.status === 400, `${p}: ${r.status}`);
      assert.doesNotMatch(r.body, /secret/);
    }
  });

  it('refuses sockets without the token or from another origin', async () => {
    const base = `ws://127.0.0.1:${server.port}/ws`;
    assert.equal((await trySocket(base)).outcome, 403);
    assert.equal((await trySocket(`${base}?token=wrong`)).outcome, 403);
    assert.equal((await trySocket(`${base}?token=${server.token}`, { origin: 'http://evil.example' })).outcome, 403);
    assert.equal((await trySocket(`ws://127.0.0.1:${server.port}/other?token=${server.token}`)).outcome, 404);
    const ok = await trySocket(`${base}?token=${server.token}`, { origin: `http://127.0.0.1:${server.port}` });
    assert.equal(ok.outcome, 'open');
    ok.ws.close();
  });

  it('releases its host subscription when a socket closes', async () => {
    const settle = async (n: number) => {
      const start = Date.now();
      while (host.listenerCount !== n && Date.now() - start < 5000) await new Promise((r) => setTimeout(r, 10));
    };
    await settle(0); // sockets of earlier tests finish closing
    const before = host.listenerCount;
    assert.equal(before, 0);
    const { ws } = await trySocket(`ws://127.0.0.1:${server.port}/ws?token=${server.token}`);
    assert.equal(host.listenerCount, before + 1);
    await new Promise((r) => {
      ws.once('close', r);
      ws.close();
    });
    await settle(0);
    assert.equal(host.listenerCount, 0);
  });

  it('answers malformed socket messages with invalid_request', async () => {
    const { ws } = await trySocket(`ws://127.0.0.1:${server.port}/ws?token=${server.token}`);
    const replies: Array<Record<string, unknown>> = [];
    ws.on('message', (d) => replies.push(JSON.parse(String(d))));
    ws.send('not json');
    ws.send(JSON.stringify({ kind: 'call', id: 7, method: 'rm -rf', params: {} }));
    ws.send(JSON.stringify({ kind: 'call', id: 8, method: 'readJob', params: { path: 3 } }));
    ws.send(JSON.stringify({ kind: 'call', id: 9, method: 'hostInfo', params: {} }));
    const start = Date.now();
    while (replies.length < 4 && Date.now() - start < 5000) await new Promise((r) => setTimeout(r, 10));
    ws.close();
    const byId = (id: number | null) => replies.find((r) => r.id === id);
    assert.deepEqual((byId(null)?.error as { code: string }).code, 'invalid_request');
    assert.match((byId(7)?.error as { message: string }).message, /unknown method/);
    assert.match((byId(8)?.error as { message: string }).message, /params\.path/);
    assert.equal((byId(9)?.result as { transport: string }).transport, 'websocket');
  });
});
