#!/usr/bin/env node
/**
 * Creates the topic examples/postgres-cdc-kafka writes (`orders-upsert`, 3 partitions, compacted as
 * an upsert topic is) on the local broker (sink.kafka writes only to a topic that exists):
 *
 *   node examples/postgres-cdc-kafka/create-topic.mjs [bootstrap]   # default 127.0.0.1:9092
 */
import { Kafka, logLevel } from 'kafkajs';

const bootstrap = process.argv[2] ?? '127.0.0.1:9092';
const admin = new Kafka({ brokers: [bootstrap], clientId: 'weir-example', logLevel: logLevel.NOTHING }).admin();
await admin.connect();
const created = await admin.createTopics({
  topics: [{ topic: 'orders-upsert', numPartitions: 3, configEntries: [{ name: 'cleanup.policy', value: 'compact' }] }],
  waitForLeaders: true,
});
await admin.disconnect();
console.error(created ? `created topic 'orders-upsert' on ${bootstrap}` : `topic 'orders-upsert' exists on ${bootstrap}`);
