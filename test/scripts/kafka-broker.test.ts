/**
 * The Kafka broker harness (scripts/kafka-broker.mjs through test/support/kafka-broker.ts) on a real
 * Kafka 4.x broker, and kafkajs against it: plain produce, a committed and an aborted transaction,
 * a read_committed reader that sees only committed rows, and the broker's transaction listing.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startKafkaBroker, type KafkaBroker } from '../support/kafka-broker.ts';

let broker: KafkaBroker;
before(async () => {
  broker = await startKafkaBroker();
});
after(async () => {
  await broker?.stop();
});

test('kafkajs produces, commits and aborts transactions on Kafka 4.x; read_committed sees committed rows only', async () => {
  await broker.createTopic('harness', 2);
  const plain = broker.kafka.producer();
  await plain.connect();
  await plain.send({ topic: 'harness', messages: [{ key: 'a', value: 'plain', partition: 0 }] });
  await plain.disconnect();

  const txp = broker.kafka.producer({ transactionalId: 'harness-tx', maxInFlightRequests: 1, idempotent: true });
  await txp.connect();
  const committed = await txp.transaction();
  await committed.send({ topic: 'harness', messages: [{ key: 'b', value: 'committed', partition: 1 }] });
  await committed.commit();
  const aborted = await txp.transaction();
  await aborted.send({ topic: 'harness', messages: [{ key: 'c', value: 'aborted', partition: 1 }] });
  await aborted.abort();
  await txp.disconnect();

  const rows = await broker.readCommitted('harness');
  assert.deepEqual(
    rows.map((r) => [r.partition, r.key, r.value]),
    [
      [0, 'a', 'plain'],
      [1, 'b', 'committed'],
    ],
  );
  const listed = broker.transactions().find((t) => t.transactionalId === 'harness-tx');
  assert.equal(listed?.state, 'CompleteAbort');
  assert.deepEqual(broker.openTransactions('harness-'), []);
});

test('an open transaction is listed as open until it ends', async () => {
  await broker.createTopic('harness-open');
  const txp = broker.kafka.producer({ transactionalId: 'harness-open-tx', maxInFlightRequests: 1, idempotent: true });
  await txp.connect();
  const txn = await txp.transaction();
  await txn.send({ topic: 'harness-open', messages: [{ value: 'x' }] });
  assert.deepEqual(
    broker.openTransactions('harness-open-').map((t) => [t.transactionalId, t.state]),
    [['harness-open-tx', 'Ongoing']],
  );
  await txn.commit();
  await txp.disconnect();
  assert.deepEqual(broker.openTransactions('harness-open-'), []);
  assert.deepEqual(
    (await broker.readCommitted('harness-open')).map((r) => r.value),
    ['x'],
  );
});
