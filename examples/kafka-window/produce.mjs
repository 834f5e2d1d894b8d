#!/usr/bin/env node
/**
 * Writes the orders of examples/orders-per-user into the Kafka topic `orders` (3 partitions,
 * created if missing, as is the job's output topic `orders-per-user`), keyed by user, for
 * examples/kafka-window:
 *
 *   node examples/kafka-window/produce.mjs [bootstrap]   # default 127.0.0.1:9092 (npm run kafka:local)
 */
import { readFileSync } from 'node:fs';
import { Kafka, logLevel } from 'kafkajs';

const bootstrap = process.argv[2] ?? '127.0.0.1:9092';
const lines = readFileSync(new URL('../orders-per-user/data/orders.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter((l) => l.trim());
const kafka = new Kafka({ brokers: [bootstrap], clientId: 'weir-example', logLevel: logLevel.NOTHING });
const admin = kafka.admin();
await admin.connect();
// The job's output topic too: sink.kafka writes only to a topic that exists.
await admin.createTopics({
  topics: [
    { topic: 'orders', numPartitions: 3 },
    { topic: 'orders-per-user', numPartitions: 3 },
  ],
  waitForLeaders: true,
});
await admin.disconnect();
const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
await producer.connect();
for (let i = 0; i < lines.length; i += 500)
  await producer.send({
    topic: 'orders',
    messages: lines.slice(i, i + 500).map((value) => ({ key: JSON.parse(value).user, value })),
  });
await producer.disconnect();
console.error(`wrote ${lines.length} orders to topic 'orders' on ${bootstrap}`);
