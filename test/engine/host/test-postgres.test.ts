/**
 * EngineHost.testPostgres ("Test connection" in the PostgreSQL forms) against a real PostgreSQL,
 * through the memory transport, so the request and answer schemas are exercised too.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startPgCluster, type PgCluster } from '../../support/postgres-cluster.ts';
import { tempDir } from '../../support/run-helpers.ts';
import { createLocalHost, type LocalHost } from '../../../engine/host/node/local-host.ts';
import { createMemoryTransport } from '../../../engine/host/common/memory-transport.ts';
import { EXAMPLES_DIR } from './host-api-suite.ts';

let cluster: PgCluster;
let host: LocalHost;
let t: ReturnType<typeof createMemoryTransport>;
let cleanup: () => void;
before(async () => {
  cluster = await startPgCluster();
  await cluster.query('CREATE TABLE public.orders (id bigint PRIMARY KEY, amount numeric(10,2) NOT NULL, note text)');
  const ws = tempDir('test-postgres');
  cleanup = ws.cleanup;
  host = createLocalHost({ workspace: ws.dir, examplesDir: EXAMPLES_DIR, transport: 'websocket' });
  t = createMemoryTransport(host);
});
after(async () => {
  t?.close();
  await host?.dispose();
  cleanup?.();
  await cluster?.stop();
});

test('answers the table with its columns, types and unique keys', async () => {
  const r = await t.client.testPostgres({ url: cluster.url, table: 'public.orders' });
  assert.deepEqual(r, {
    ok: true,
    table: 'public.orders',
    columns: [
      { name: 'id', type: 'bigint', notNull: true },
      { name: 'amount', type: 'numeric(10,2)', notNull: true },
      { name: 'note', type: 'text', notNull: false },
    ],
    uniqueKeys: [['id']],
  });
});

test('a missing table, a refused connection, a password in the URL and an unset variable are answers naming the field', async () => {
  const missing = await t.client.testPostgres({ url: cluster.url, table: 'nosuch' });
  assert.deepEqual(missing, {
    ok: false,
    message: 'table: table public.nosuch does not exist (create it first: Weir writes into an existing table)',
  });
  const refused = await t.client.testPostgres({ url: 'postgresql://postgres@127.0.0.1:1/postgres', table: 't' });
  assert.equal(refused.ok, false);
  assert.match(refused.message ?? '', /^url: cannot connect to 127\.0\.0\.1:1\/postgres as postgres: /);
  const secret = await t.client.testPostgres({ url: 'postgresql://postgres:pw@127.0.0.1/postgres', table: 't' });
  assert.match(secret.message ?? '', /^url: the URL carries a password/);
  const unset = await t.client.testPostgres({ url: cluster.url, table: 't', passwordEnv: 'WEIR_TEST_UNSET_PW' });
  assert.match(unset.message ?? '', /^passwordEnv: the environment variable WEIR_TEST_UNSET_PW is not set/);
});
