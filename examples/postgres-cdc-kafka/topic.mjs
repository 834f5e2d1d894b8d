#!/usr/bin/env node
/**
 * Creates the Kafka topic `orders-with-tax` (3 partitions) that examples/postgres-cdc-kafka writes:
 * sink.kafka writes only to a topic that exists.
 *
 *   node examples/postgres-cdc-kafka/topic.mjs [bootstrap]   # default 127.0.0.1:9092 (npm run kafka:local)
 */
import { Kafka, logLevel } from 'kafkajs';

const bootstrap = process.argv[2] ?? '127.0.0.1:9092';
const kafka = new Kafka({ brokers: [bootstrap], clientId: 'weir-example', logLevel: logLevel.NOTHING });
const admin = kafka.admin();
await admin.connect();
const created = await admin.createTopics({
  topics: [{ topic: 'orders-with-tax', numPartitions: 3 }],
  waitForLeaders: true,
});
await admin.disconnect();
console.error(`topic 'orders-with-tax' ${created ? 'created' : 'already exists'} on ${bootstrap}`);
