import WebSocket from 'ws';
import { connectHost, type WebSocketConstructor } from '../../../engine/host/browser/ws-client.ts';
import { startWebServer } from '../../../engine/host/node/web-server.ts';
import { defineHostApiSuite } from './host-api-suite.ts';
import { defineHostLiveSuite } from './host-live-suite.ts';

defineHostApiSuite('the WebSocket transport', async (host) => {
  const server = await startWebServer({ host, rendererDir: '/nonexistent', port: 0 });
  const client = await connectHost(`ws://127.0.0.1:${server.port}/ws`, server.token, {
    WebSocket: WebSocket as unknown as WebSocketConstructor,
  });
  return {
    client,
    async close() {
      client.close();
      await server.close();
    },
  };
});

defineHostLiveSuite('the WebSocket transport', async (host) => {
  const server = await startWebServer({ host, rendererDir: '/nonexistent', port: 0 });
  const client = await connectHost(`ws://127.0.0.1:${server.port}/ws`, server.token, {
    WebSocket: WebSocket as unknown as WebSocketConstructor,
  });
  return {
    client,
    async close() {
      client.close();
      await server.close();
    },
  };
});
