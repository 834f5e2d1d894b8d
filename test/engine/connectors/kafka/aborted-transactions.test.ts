/**
 * What a read_committed reader sees when transactions are aborted in another order than they began
 * (aborted-transactions.ts): the cause of the duplicates chaos-kafka-sink.test.ts saw. A `sink.kafka`
 * recovery fences a killed attempt's open transactions one by one; each subtask's transaction wrote
 * to every partition, so a partition holds a transaction that began first and was aborted second.
 * The broker lists aborted transactions in abort order; kafkajs's consumer read that list as sorted
 * by start and showed the first transaction's records as committed. Weir's Kafka source and the
 * tests' reader apply the Java consumer's rule, checked here against the broker's own consumer.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { after, before, test } from 'node:test';
import type { Producer } from 'kafkajs';
import { committedRecords, type FetchedMessage } from '../../../../engine/connectors/kafka/aborted-transactions.ts';
import { KafkaCluster, splitId } from '../../../../engine/connectors/kafka/kafka-cluster.ts';
import {
  KafkaTransactionAdmin,
  OPEN_TRANSACTION_STATES,
} from '../../../../engine/connectors/kafka/transaction-admin.ts';
import { brokerClasspath } from '../../../../scripts/kafka-broker.mjs';
import { startKafkaBroker, type KafkaBroker } from '../../../support/kafka-broker.ts';
import { openTransaction } from '../../../support/kafka-source-data.ts';

/** kafkajs's own filter (2.2.4), which its consumer applies: the guard below shows it is wrong here. */
const kafkajsFilter = createRequire(import.meta.url)('kafkajs/src/consumer/filterAbortedMessages.js') as (o: {
  messages: Msg[];
  abortedTransactions: { producerId: string; firstOffset: string }[];
}) => Msg[];

const ABORT_KEY = Buffer.from([0, 0, 0, 0]);
const COMMIT_KEY = Buffer.from([0, 0, 0, 1]);

type Msg = FetchedMessage & { value: string };

function rec(offset: number, producerId: string, value: string, inTransaction = true): Msg {
  return { offset: String(offset), key: null, value, batchContext: { producerId, inTransaction } };
}

function marker(offset: number, producerId: string, key: Buffer): Msg {
  return {
    offset: String(offset),
    key,
    value: '',
    isControlRecord: true,
    batchContext: { producerId, inTransaction: true },
  };
}

const values = (ms: Msg[]) => ms.map((m) => m.value);

test('transactions aborted in the other order than they began are both hidden', () => {
  // A (producer 1) wrote at 0 and 1, B (producer 2) at 2 and 3; B was aborted first, so the broker
  // lists it first (a recovery's fences after a kill, each subtask's transaction on every partition).
  const messages = [
    rec(0, '1', 'a0'),
    rec(1, '1', 'a1'),
    rec(2, '2', 'b0'),
    rec(3, '2', 'b1'),
    marker(4, '2', ABORT_KEY),
    marker(5, '1', ABORT_KEY),
    rec(6, '3', 'c0', false),
  ];
  const aborted = [
    { producerId: '2', firstOffset: '2' },
    { producerId: '1', firstOffset: '0' },
  ];
  assert.deepEqual(values(committedRecords(messages, aborted)), ['c0']);
  // Guard: kafkajs's consumer shows A's records as committed (the chaos test's duplicates).
  const kafkajsShows = kafkajsFilter({ messages, abortedTransactions: aborted }).filter((m) => !m.isControlRecord);
  assert.deepEqual(values(kafkajsShows), ['a0', 'a1', 'c0']);
});

test('a fetch starting inside two aborted transactions hides both from its first record', () => {
  const messages = [rec(10, '1', 'a9'), rec(11, '2', 'b9'), marker(12, '1', ABORT_KEY), marker(13, '2', ABORT_KEY)];
  const aborted = [
    { producerId: '1', firstOffset: '3' },
    { producerId: '2', firstOffset: '5' },
  ];
  assert.deepEqual(values(committedRecords(messages, aborted)), []);
});

test("a producer's committed transaction after its aborted one is shown; markers never are", () => {
  const messages = [
    rec(0, '1', 'x'),
    marker(1, '1', ABORT_KEY),
    rec(2, '1', 'y'),
    marker(3, '1', COMMIT_KEY),
    rec(4, '1', 'plain', false),
  ];
  assert.deepEqual(values(committedRecords(messages, [{ producerId: '1', firstOffset: '0' }])), ['y', 'plain']);
  assert.deepEqual(values(committedRecords(messages, null)), ['x', 'y', 'plain']);
});

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

async function commitOne(producer: Producer, topic: string, value: string): Promise<void> {
  const txn = await producer.transaction();
  await txn.send({ topic, messages: [{ value }] });
  await txn.commit();
}

/** The broker's own read_committed consumer (kafka-console-consumer), stopping after `count` records. */
function javaReadCommitted(topic: string, count: number): string[] {
  const r = spawnSync(
    'java',
    [
      '-cp',
      brokerClasspath(),
      '-XX:TieredStopAtLevel=1',
      'org.apache.kafka.tools.consumer.ConsoleConsumer',
      '--bootstrap-server',
      broker.bootstrap,
      '--topic',
      topic,
      '--from-beginning',
      '--isolation-level',
      'read_committed',
      '--max-messages',
      String(count),
    ],
    { encoding: 'utf8', timeout: 120_000 },
  );
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.trim().split('\n');
}

/** What Weir's Kafka source fetches as visible (kafka-cluster.ts), from the start to the end. */
async function sourceReads(topic: string): Promise<string[]> {
  const cluster = new KafkaCluster(broker.bootstrap, 'weir-test-source');
  await cluster.connect();
  try {
    const parts = await cluster.partitions([topic]);
    const ends = await cluster.offsets(parts, 'latest');
    const offsets = await cluster.offsets(parts, 'earliest');
    const out: string[] = [];
    const id = splitId(topic, 0);
    while (offsets.get(id)! < ends.get(id)!)
      for (const f of await cluster.fetch(offsets, parts, 500))
        for (const r of f.records) {
          if (r.visible) out.push(r.value!.toString('utf8'));
          offsets.set(id, r.offset + 1);
        }
    return out;
  } finally {
    await cluster.disconnect();
  }
}

test(
  "a recovery's fences abort out of start order: the broker's consumer, Weir's source and the tests' reader see only the commits",
  { timeout: 240_000 },
  async () => {
    const topic = 'out-of-order-aborts';
    await broker.createTopic(topic, 1);
    const committer = broker.kafka.producer({ transactionalId: 'ooa-c', maxInFlightRequests: 1, idempotent: true });
    await committer.connect();
    try {
      await commitOne(committer, topic, 'c0');
      // Two killed subtasks' transactions on one partition: a began first, b second.
      const a = await openTransaction(broker.kafka, 'ooa-a', topic, ['a0', 'a1', 'a2']);
      const b = await openTransaction(broker.kafka, 'ooa-b', topic, ['b0', 'b1']);
      await a.disconnect();
      await b.disconnect();
      // The recovery fences them in listing order: here b first.
      await admin.fence('ooa-b');
      await admin.fence('ooa-a');
      await commitOne(committer, topic, 'c1');
    } finally {
      await committer.disconnect();
    }
    const open = await admin.listTransactions(OPEN_TRANSACTION_STATES);
    assert.deepEqual(
      open.filter((t) => t.transactionalId === 'ooa-a' || t.transactionalId === 'ooa-b'),
      [],
      'both ended by their fences',
    );

    assert.deepEqual(javaReadCommitted(topic, 2), ['c0', 'c1'], "the broker's own consumer");
    assert.deepEqual(await sourceReads(topic), ['c0', 'c1'], "Weir's Kafka source");
    assert.deepEqual(
      (await broker.readCommitted(topic)).map((r) => r.value),
      ['c0', 'c1'],
      "the tests' reader",
    );
  },
);
