/** `sink.kafka`: rows as messages of a Kafka topic, exactly once through Kafka transactions. */
import { z } from 'zod';
import { nonEmpty } from '../schema-pieces.ts';
import { clip, str } from '../text.ts';
import { defineNode, type Assert, type SchemaMatches } from '../definition.ts';

/** `raw`: the value is the row's only column, as text. */
export type KafkaFormat = 'jsonl' | 'csv' | 'raw';
export type KafkaGuarantee = 'exactly-once' | 'at-least-once';

/**
 * `sink.kafka`: one message per row. With `key` the message key is those columns (in `format`) and
 * a changelog input is written as upsert-kafka does: inserts and updates as values, deletes as
 * tombstones (null values). `exactly-once`: one Kafka transaction per subtask and checkpoint,
 * committed when the checkpoint completes, so a `read_committed` reader sees each row once.
 */
export interface KafkaSinkConfig {
  /** `host:port,host:port`. */
  bootstrap: string;
  topic: string;
  format: KafkaFormat;
  /** `col, col`: the message key; needed for a changelog input. */
  key?: string;
  guarantee: KafkaGuarantee;
  /** Exactly-once: transactional ids start with it (default `weir-<job>-<node>`); unique per sink. */
  transactionalIdPrefix?: string;
}

const configSchema = z.strictObject({
  bootstrap: nonEmpty.meta({ description: "Kafka brokers: 'host:port,host:port'" }),
  topic: nonEmpty.meta({ description: 'The topic to write (it must exist)' }),
  format: z.enum(['jsonl', 'csv', 'raw']),
  key: nonEmpty.optional().meta({ description: "Message key columns: 'col, col' (upsert semantics for a changelog)" }),
  guarantee: z.enum(['exactly-once', 'at-least-once']),
  transactionalIdPrefix: nonEmpty
    .optional()
    .meta({ description: "Exactly-once: prefix of the sink's transactional ids (default weir-<job>-<node>)" }),
});
// Compile-time proof: the schema and KafkaSinkConfig describe the same configs, key for key.
export type _ConfigSchemaCheck = Assert<SchemaMatches<typeof configSchema, KafkaSinkConfig>>;

/** The key columns of `key` (`'a, b'` -> ['a', 'b']). */
export function kafkaKeyColumns(key: string | undefined): string[] {
  return (key ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter((k) => k !== '');
}

export const kafkaSink = defineNode<'sink.kafka', KafkaSinkConfig>({
  type: 'sink.kafka',
  palette: {
    label: 'Kafka sink',
    group: 'Sinks',
    idPrefix: 'kafka-sink',
    description:
      'Writes one message per row to a Kafka topic, exactly once through Kafka transactions committed at checkpoints (or at least once); with a key, a changelog is written as upserts and tombstones.',
    // a log of messages
    icon: 'M4 5h16v4H4z M4 10h16v4H4z M4 15h16v4H4z',
    newConfig: () => ({ bootstrap: 'localhost:9092', topic: 'output', format: 'jsonl', guarantee: 'exactly-once' }),
    summary: (c) => clip(`${str(c.format) || '?'} ${str(c.topic) || '(no topic)'}`),
  },
  ports: { outputs: [], minInputs: 1, maxInputs: Infinity },
  transactional: { pendingUnit: 'transaction(s)' },
  configSchema,
  check: (c, ctx) => {
    for (const address of c.bootstrap.split(','))
      if (!/^\s*[^\s:,]+:\d{1,5}\s*$/.test(address)) {
        ctx.error('bootstrap', `'${address.trim()}' is not host:port (e.g. localhost:9092)`);
        break;
      }
    if (c.transactionalIdPrefix !== undefined && c.guarantee !== 'exactly-once')
      ctx.error('transactionalIdPrefix', 'transactional ids are only used with guarantee "exactly-once"');
    const known = ctx.inputColumns();
    if (!known) return; // unknown before reading data
    const missing = kafkaKeyColumns(c.key).filter((k) => !known.has(k));
    if (missing.length > 0)
      ctx.error(
        'key',
        `key column${missing.length > 1 ? 's' : ''} ${missing.map((m) => `'${m}'`).join(', ')} not in the input (known: ${[...known].join(', ')})`,
      );
    if (c.format === 'raw' && known.size !== 1)
      ctx.error('format', `raw writes the row's only column as the value, but the input has ${known.size} columns`);
  },
  completionColumns: () => [],
  changelog: {
    accepts: (c) => kafkaKeyColumns(c.key).length > 0,
    refusalHint: (_c, at) => `: set ${at('key')} to the changelog's key columns (deletes become tombstones)`,
  },
  // One key, one subtask: a key's changes reach its partition in order.
  partitionKey: (c) => (kafkaKeyColumns(c.key).length > 0 ? c.key : undefined),
  defaults: {},
  fields: [
    { kind: 'text', path: 'bootstrap', label: 'Bootstrap', help: 'Kafka brokers: host:port, host:port', empty: '' },
    { kind: 'text', path: 'topic', label: 'Topic', help: 'An existing topic', empty: '' },
    {
      kind: 'select',
      path: 'format',
      label: 'Format',
      options: [
        { value: 'jsonl', label: 'JSON (one object per message)' },
        { value: 'csv', label: 'CSV (one line per message, no header)' },
        { value: 'raw', label: 'Raw (the only column, as text)' },
      ],
      empty: 'jsonl',
    },
    { kind: 'text', path: 'key', label: 'Key', help: 'Message key columns: id, day (a changelog needs one)' },
    {
      kind: 'select',
      path: 'guarantee',
      label: 'Guarantee',
      options: [
        { value: 'exactly-once', label: 'Exactly once (Kafka transactions)' },
        { value: 'at-least-once', label: 'At least once (flushed at checkpoints)' },
      ],
      empty: 'exactly-once',
    },
    {
      kind: 'text',
      path: 'transactionalIdPrefix',
      label: 'Transactional id prefix',
      help: 'Unique per sink; default weir-<job>-<node>',
      when: (c) => c.guarantee === 'exactly-once',
    },
    { kind: 'inputColumns' },
    {
      kind: 'note',
      text: () =>
        'Exactly once: messages become visible to read_committed readers when the checkpoint that covers them completes.',
    },
  ],
});
