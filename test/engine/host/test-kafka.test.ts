/**
 * EngineHost.testKafka ("Test connection" in the Kafka source's form) against a real broker, through
 * the memory transport, so the request and answer schemas are exercised too.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startKafkaBroker, type KafkaBroker } from '../../support/kafka-broker.ts';
import { tempDir } from '../../support/run-helpers.ts';
import { produceIds, produceRaw } from '../../support/kafka-source-data.ts';
import { createLocalHost, type LocalHost } from '../../../engine/host/node/local-host.ts';
import { createMemoryTransport } from '../../../engine/host/common/memory-transport.ts';
import { EXAMPLES_DIR } from './host-api-suite.ts';

let broker: KafkaBroker;
let host: LocalHost;
let t: ReturnType<typeof createMemoryTransport>;
let cleanup: () => void;
before(async () => {
  broker = await startKafkaBroker();
  const ws = tempDir('test-kafka');
  cleanup = ws.cleanup;
  host = createLocalHost({ workspace: ws.dir, examplesDir: EXAMPLES_DIR, transport: 'websocket' });
  t = createMemoryTransport(host);
});
after(async () => {
  t?.close();
  await host?.dispose();
  cleanup?.();
  await broker?.stop();
});

test('lists the topics with their partitions and infers a topic’s columns from its records', async () => {
  await broker.createTopic('orders', 3);
  await broker.createTopic('empty', 1);
  await produceIds(broker.kafka, 'orders', 0, 30, 3);
  await produceRaw(broker.kafka, 'orders', 0, ['not json']);
  const listed = await t.client.testKafka({ bootstrap: broker.bootstrap });
  assert.deepEqual(listed, {
    ok: true,
    topics: [
      { topic: 'empty', partitions: 1 },
      { topic: 'orders', partitions: 3 },
    ],
  });
  const sampled = await t.client.testKafka({ bootstrap: broker.bootstrap, topic: 'orders' });
  assert.equal(sampled.ok, true);
  assert.deepEqual(sampled.columns, [
    { name: 'id', type: 'BIGINT' },
    { name: 'k', type: 'STRING' },
    { name: 'v', type: 'BIGINT' },
    { name: 'at', type: 'BIGINT' },
  ]);
  const empty = await t.client.testKafka({ bootstrap: broker.bootstrap, topic: 'empty' });
  assert.deepEqual([empty.ok, empty.columns, empty.message], [true, [], "no records in 'empty' to sample"]);
});

test('says what is wrong, naming the field: a missing topic, a broker that does not answer', async () => {
  const missing = await t.client.testKafka({ bootstrap: broker.bootstrap, topic: 'nosuch' });
  assert.equal(missing.ok, false);
  assert.match(missing.message ?? '', /^topic: 'nosuch' does not exist/);
  const down = await t.client.testKafka({ bootstrap: '127.0.0.1:1' });
  assert.equal(down.ok, false);
  assert.match(down.message ?? '', /^bootstrap: cannot reach 127\.0\.0\.1:1/);
});
