/**
 * Resuming, fencing and listing Kafka transactions at the protocol level (transaction-admin.ts) on a
 * real Kafka 4.x broker, against what kafkajs producers did and what the broker's own
 * TransactionsCommand lists.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { KafkaProtocolError, KafkaTransactionAdmin } from '../../../../engine/connectors/kafka/transaction-admin.ts';
import { startKafkaBroker, type KafkaBroker } from '../../../support/kafka-broker.ts';
import { openTransaction } from '../../../support/kafka-source-data.ts';

let broker: KafkaBroker;
let admin: KafkaTransactionAdmin;
before(async () => {
  broker = await startKafkaBroker();
  admin = new KafkaTransactionAdmin([broker.bootstrap]);
});
after(async () => {
  admin?.close();
  await broker?.stop();
});

test('a transaction its producer left open is committed from its stored producer id and epoch, twice harmlessly', async () => {
  await broker.createTopic('resume');
  const producer = await openTransaction(broker.kafka, 'resume-tx', 'resume', ['a', 'b']);
  const described = await admin.describeTransaction('resume-tx');
  assert.equal(described?.state, 'Ongoing');
  // The producer goes away without ending its transaction (its process was killed).
  await producer.disconnect();

  const handle = {
    transactionalId: 'resume-tx',
    producerId: described.producerId,
    producerEpoch: described.producerEpoch,
  };
  await admin.endTransaction(handle, true);
  await admin.endTransaction(handle, true); // a recovery that ran twice
  assert.deepEqual(
    (await broker.readCommitted('resume')).map((r) => r.value),
    ['a', 'b'],
  );
  assert.equal((await admin.describeTransaction('resume-tx'))?.state, 'CompleteCommit');
  assert.deepEqual(broker.openTransactions('resume-'), []);
});

test('fencing a transactional id aborts its open transaction and refuses its old producer', async () => {
  await broker.createTopic('fence');
  const producer = await openTransaction(broker.kafka, 'fence-tx', 'fence', ['x']);
  const before = (await admin.describeTransaction('fence-tx'))!;
  const fenced = await admin.fence('fence-tx');
  assert.equal(fenced.producerId, before.producerId);
  assert.ok(fenced.producerEpoch > before.producerEpoch, 'the epoch is bumped');
  assert.deepEqual(broker.openTransactions('fence-'), []);
  await assert.rejects(
    admin.endTransaction(
      { transactionalId: 'fence-tx', producerId: before.producerId, producerEpoch: before.producerEpoch },
      true,
    ),
    (e: unknown) => e instanceof KafkaProtocolError,
  );
  await producer.disconnect();
  assert.deepEqual(await broker.readCommitted('fence'), []);
});

test('listTransactions lists what the broker lists, with the open ones in their state', async () => {
  await broker.createTopic('list');
  const producer = await openTransaction(broker.kafka, 'list-open', 'list', ['1']);
  const ours = (await admin.listTransactions()).filter((t) => t.transactionalId.startsWith('list-'));
  assert.deepEqual(
    ours.map((t) => [t.transactionalId, t.state]),
    [['list-open', 'Ongoing']],
  );
  const filtered = await admin.listTransactions(['CompleteCommit']);
  assert.ok(filtered.every((t) => t.state === 'CompleteCommit'));
  assert.ok(filtered.some((t) => t.transactionalId === 'resume-tx'));
  const tool = broker
    .transactions()
    .map((t) => `${t.transactionalId}:${t.state}`)
    .sort();
  const mine = (await admin.listTransactions()).map((t) => `${t.transactionalId}:${t.state}`).sort();
  assert.deepEqual(mine, tool);
  await admin.fence('list-open');
  await producer.disconnect();
  assert.equal(await admin.describeTransaction('never-used-id'), null);
});
