import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import {
  connectHost,
  type ConnectionState,
  type WebSocketConstructor,
} from '../../../engine/host/browser/ws-client.ts';
import { HostError } from '../../../engine/host/common/errors.ts';
import { createLocalHost } from '../../../engine/host/node/local-host.ts';
import { createServeAuth } from '../../../engine/host/node/serve-auth.ts';
import { startWebServer } from '../../../engine/host/node/web-server.ts';
import { EXAMPLES_DIR } from './host-api-suite.ts';

const WS = WebSocket as unknown as WebSocketConstructor;

describe('ws-client', () => {
  const workspace = mkdtempSync(join(tmpdir(), 'weir-wsc-'));
  after(() => rmSync(workspace, { recursive: true, force: true }));

  it('rejects when the first connection is refused (wrong token)', async () => {
    const host = createLocalHost({ workspace, examplesDir: EXAMPLES_DIR });
    const server = await startWebServer({ host, rendererDir: workspace, port: 0 });
    try {
      await assert.rejects(
        connectHost(`ws://127.0.0.1:${server.port}/ws`, 'wrong', { WebSocket: WS }),
        (e: unknown) => e instanceof HostError && /cannot connect/.test(e.message),
      );
    } finally {
      await server.close();
    }
  });

  it('reconnects after the server restarts, failing only the calls in flight', async () => {
    const host = createLocalHost({ workspace, examplesDir: EXAMPLES_DIR });
    const auth = createServeAuth();
    let server = await startWebServer({ host, rendererDir: workspace, port: 0, auth });
    const port = server.port;
    const client = await connectHost(`ws://127.0.0.1:${port}/ws`, auth.token, {
      WebSocket: WS,
      minReconnectDelay: 20,
      maxReconnectDelay: 100,
    });
    const states: ConnectionState[] = [];
    client.onConnectionChange((s) => states.push(s));
    try {
      assert.equal((await client.hostInfo({})).workspace, workspace);
      await server.close();
      while (client.connectionState !== 'reconnecting') await new Promise((r) => setTimeout(r, 5));
      const waiting = client.listExamples({});
      server = await startWebServer({ host, rendererDir: workspace, port, auth });
      const examples = await waiting;
      assert.ok(examples.length > 0, 'a call made while disconnected runs after reconnecting');
      assert.deepEqual(states, ['reconnecting', 'open']);
    } finally {
      client.close();
      await server.close();
    }
    await assert.rejects(client.hostInfo({}), /closed/);
  });
});
