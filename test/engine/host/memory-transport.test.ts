import { createMemoryTransport } from '../../../engine/host/common/memory-transport.ts';
import { defineHostApiSuite } from './host-api-suite.ts';
import { defineHostLiveSuite } from './host-live-suite.ts';

defineHostApiSuite('the in-memory transport', async (host) => {
  const t = createMemoryTransport(host);
  return { client: t.client, close: () => t.close() };
});

defineHostLiveSuite('the in-memory transport', async (host) => {
  const t = createMemoryTransport(host);
  return { client: t.client, close: () => t.close() };
});
