import { createMemoryTransport } from '../../../engine/host/memory-transport.ts';
import { defineHostApiSuite } from './host-api-suite.ts';

defineHostApiSuite('the in-memory transport', async (host) => {
  const t = createMemoryTransport(host);
  return { client: t.client, close: () => t.close() };
});
