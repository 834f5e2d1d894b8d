/**
 * `sink.kafka` exported as Flink's Kafka connectors: `kafka` for an append input (with key fields
 * when keyed), `upsert-kafka` with a PRIMARY KEY for a changelog, the delivery guarantee and, for
 * exactly-once, the sink's transactional id prefix and a transaction timeout the broker accepts.
 * Read back by the importer to the same configs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { exportFlinkSql } from '../../../../engine/export/flink-sql/index.ts';
import { importFlinkSql } from '../../../../engine/import/flink-sql/index.ts';
import { describeSyntaxErrors, flinkSyntaxErrors } from './grammar.ts';
import { job } from './jobs.ts';

const kafka = (id: string, config: Record<string, unknown>) => ({
  id,
  type: 'sink.kafka',
  config: { bootstrap: 'broker:9092', format: 'jsonl', guarantee: 'exactly-once', ...config },
});

const doc = {
  name: 'kafka-out',
  settings: { checkpointing: { interval: '1s', dir: 'checkpoints' }, parallelism: 2 },
  nodes: [
    { id: 'gen', type: 'source.generator', config: { count: 100, keys: 4 } },
    kafka('plain', { topic: 'plain' }),
    kafka('keyed', { topic: 'keyed', key: 'key', guarantee: 'at-least-once', format: 'csv' }),
    { id: 'agg', type: 'aggregate', config: { keyBy: 'key', aggregates: 'COUNT(*) AS n' } },
    kafka('upsert', { topic: 'totals', key: 'key', transactionalIdPrefix: 'totals-tx' }),
  ],
  edges: [
    { from: 'gen', to: 'plain' },
    { from: 'gen', to: 'keyed' },
    { from: 'gen', to: 'agg' },
    { from: 'agg', to: 'upsert' },
  ],
} as const;

/** The CREATE TABLE statement of `name`. */
function table(text: string, name: string): string {
  const start = text.search(new RegExp(`CREATE TABLE \`?${name}\`? \\(`));
  assert.ok(start >= 0, `no table ${name} in:\n${text}`);
  return text.slice(start, text.indexOf(';', start));
}

test('sink.kafka exports as kafka / upsert-kafka with its delivery guarantee and transactional ids', () => {
  const { text } = exportFlinkSql(job(doc as never));
  const errors = flinkSyntaxErrors(text);
  assert.deepEqual(errors, [], describeSyntaxErrors(text, errors));

  const plain = table(text, 'plain');
  assert.match(plain, /'connector' = 'kafka'/);
  assert.match(plain, /'topic' = 'plain'/);
  assert.match(plain, /'properties.bootstrap.servers' = 'broker:9092'/);
  assert.match(plain, /'format' = 'json'/);
  assert.match(plain, /'sink.delivery-guarantee' = 'exactly-once'/);
  assert.match(plain, /'sink.transactional-id-prefix' = 'weir-kafka-out-plain'/);
  assert.match(plain, /'properties.transaction.timeout.ms' = '900000'/);

  const keyed = table(text, 'keyed');
  assert.match(keyed, /'connector' = 'kafka'/);
  assert.match(keyed, /'key.format' = 'csv'/);
  assert.match(keyed, /'key.fields' = 'key'/);
  assert.match(keyed, /'value.format' = 'csv'/);
  assert.match(keyed, /'sink.delivery-guarantee' = 'at-least-once'/);
  assert.doesNotMatch(keyed, /transactional-id-prefix/);

  const upsert = table(text, 'upsert');
  assert.match(upsert, /'connector' = 'upsert-kafka'/);
  assert.match(upsert, /PRIMARY KEY \(`key`\) NOT ENFORCED/);
  assert.match(upsert, /'key.format' = 'json'/);
  assert.match(upsert, /'value.format' = 'json'/);
  assert.match(upsert, /'sink.transactional-id-prefix' = 'totals-tx'/);
});

test('the exported kafka and upsert-kafka tables import back as the same sink.kafka configs', () => {
  const exported = job(doc as never);
  const { job: imported, problems } = importFlinkSql(exportFlinkSql(exported).text);
  assert.deepEqual(
    problems.filter((p) => p.severity === 'error'),
    [],
  );
  const configs = (nodes: readonly { id: string; type: string; config: unknown }[]) =>
    Object.fromEntries(nodes.filter((n) => n.type === 'sink.kafka').map((n) => [n.id, n.config]));
  assert.deepEqual(configs(imported.nodes), configs(exported.nodes));
});
