/**
 * A local host over the memory transport with a throwaway workspace, for tests that call the host
 * API the way the app does (request and answer schemas exercised) without a socket.
 */
import { tempDir } from '../../support/run-helpers.ts';
import { createLocalHost, type LocalHost } from '../../../engine/host/node/local-host.ts';
import { createMemoryTransport } from '../../../engine/host/common/memory-transport.ts';
import { EXAMPLES_DIR } from './host-api-suite.ts';

export interface MemoryHost {
  host: LocalHost;
  client: ReturnType<typeof createMemoryTransport>['client'];
  /** Closes the transport, disposes the host and deletes the workspace. */
  close(): Promise<void>;
}

export function startMemoryHost(prefix: string): MemoryHost {
  const ws = tempDir(prefix);
  const host = createLocalHost({ workspace: ws.dir, examplesDir: EXAMPLES_DIR, transport: 'websocket' });
  const t = createMemoryTransport(host);
  return {
    host,
    client: t.client,
    close: async () => {
      t.close();
      await host.dispose();
      ws.cleanup();
    },
  };
}
