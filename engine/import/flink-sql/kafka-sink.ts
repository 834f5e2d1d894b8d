/**
 * A `kafka` or `upsert-kafka` table that the script writes, as `sink.kafka`: the inverse of
 * export/flink-sql/kafka-sink.ts (the source side, a Kafka table the script reads, is
 * source.kafka's). upsert-kafka's PRIMARY KEY, or kafka's `key.fields`, is the sink's key; the
 * delivery guarantee and transactional id prefix are read back (a prefix the export marked as
 * Weir's default for the job and node is left out, so it follows a renamed job or node).
 */
import type { KafkaSinkConfig } from '../../graph/types.ts';
import type { JobBuilder } from './builder.ts';
import type { TableStatement } from './statements.ts';
import type { KafkaFormat } from '../../nodes/sink-kafka/definition.ts';
import { DEFAULT_PREFIX_NOTE } from '../../connectors/kafka/sink-naming.ts';

const WEIR_FORMAT: Record<string, KafkaFormat> = { json: 'jsonl', csv: 'csv', raw: 'raw' };

export function isKafkaSink(connector: string): boolean {
  return connector === 'kafka' || connector === 'upsert-kafka';
}

export function kafkaSinkConfig(b: JobBuilder, t: TableStatement): KafkaSinkConfig {
  const o = t.options;
  const upsert = (o.connector ?? '').toLowerCase() === 'upsert-kafka';
  const flinkFormat = (o.format ?? o['value.format'] ?? 'json').toLowerCase();
  const format = WEIR_FORMAT[flinkFormat];
  if (!format)
    b.problem(
      t.pos,
      `table '${t.name}': format '${flinkFormat}' has no Weir equivalent (json, csv, raw); written as JSON`,
    );
  const keyColumns = upsert ? (t.primaryKey ?? []) : (o['key.fields'] ?? '').split(';').filter((k) => k.trim() !== '');
  const guarantee = (o['sink.delivery-guarantee'] ?? 'at-least-once').toLowerCase();
  if (guarantee === 'none')
    b.problem(t.pos, `table '${t.name}': delivery guarantee 'none' becomes Weir's at-least-once`);
  const prefix = o['sink.transactional-id-prefix'];
  const defaultPrefix = t.notes.some((n) => n.includes(DEFAULT_PREFIX_NOTE));
  const config: KafkaSinkConfig = {
    bootstrap: o['properties.bootstrap.servers'] ?? '',
    topic: o.topic ?? t.name,
    format: format ?? 'jsonl',
    guarantee: guarantee === 'exactly-once' ? 'exactly-once' : 'at-least-once',
  };
  if (keyColumns.length > 0) config.key = keyColumns.map((k) => k.trim()).join(', ');
  if (prefix && !defaultPrefix && config.guarantee === 'exactly-once') config.transactionalIdPrefix = prefix;
  return config;
}
