/**
 * `sink.kafka` as Flink's Kafka connectors (flink-sql-connector-kafka): `kafka` for an append input,
 * `upsert-kafka` for a changelog (keyed by the sink's `key`, deletes as tombstones, as Weir writes
 * them). Exactly-once maps to `sink.delivery-guarantee = exactly-once` with the same transactional
 * id prefix Weir uses, and a producer transaction timeout the broker accepts by default (Flink's
 * own default, 1 hour, is above the broker's `transaction.max.timeout.ms` of 15 minutes).
 * The importer (engine/import/flink-sql) reads these options back.
 */
import type { JobNodeOf } from '../../graph/types.ts';
import type { ExportContext, Relation } from './context.ts';
import { kafkaKeyColumns, kafkaSink, type KafkaFormat } from '../../nodes/sink-kafka/definition.ts';
import {
  DEFAULT_PREFIX_NOTE,
  defaultTransactionalIdPrefix,
  TRANSACTION_TIMEOUT_MS,
} from '../../connectors/kafka/sink-naming.ts';

export interface KafkaSinkTable {
  options: Array<[string, string]>;
  comments: string[];
  /** upsert-kafka: the key as `PRIMARY KEY (...) NOT ENFORCED` columns. */
  primaryKey: string[] | null;
}

/** Weir's format -> Flink's format identifier. */
const FLINK_FORMAT: Record<KafkaFormat, string> = { jsonl: 'json', csv: 'csv', raw: 'raw' };

export function kafkaSinkTable(
  ctx: ExportContext,
  node: JobNodeOf<typeof kafkaSink.type> & { parallelism: number },
  input: Relation,
): KafkaSinkTable {
  const c = node.config;
  const format = FLINK_FORMAT[c.format];
  const key = kafkaKeyColumns(c.key);
  const upsert = input.changelog === true;
  const options: Array<[string, string]> = [
    ['connector', upsert ? 'upsert-kafka' : 'kafka'],
    ['topic', c.topic],
    ['properties.bootstrap.servers', c.bootstrap],
  ];
  const comments: string[] = [];
  if (upsert) {
    options.push(['key.format', format], ['value.format', format]);
    comments.push("-- A changelog keyed by the PRIMARY KEY: updates as values, deletes as tombstones (Weir's key).");
  } else if (key.length > 0) {
    options.push(['key.format', format], ['key.fields', key.join(';')], ['value.format', format]);
  } else {
    options.push(['format', format]);
  }
  options.push(['sink.delivery-guarantee', c.guarantee]);
  if (c.guarantee === 'exactly-once') {
    if (c.transactionalIdPrefix === undefined)
      comments.push(`-- 'sink.transactional-id-prefix' ${DEFAULT_PREFIX_NOTE} (weir-<job>-<node>).`);
    options.push(
      ['sink.transactional-id-prefix', c.transactionalIdPrefix ?? defaultTransactionalIdPrefix(ctx.job.name, node.id)],
      ['properties.transaction.timeout.ms', String(TRANSACTION_TIMEOUT_MS)],
    );
    comments.push(
      '-- Exactly once: Kafka transactions committed on checkpoints; read the topic with isolation.level = read_committed.',
    );
  }
  return { options, comments, primaryKey: upsert ? key : null };
}
