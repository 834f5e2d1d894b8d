/** `source.kafka`: the records of Kafka topics, partitions as splits, offsets as the position Sn. */
import { z } from 'zod';
import { duration, eventTime, nonEmpty } from '../schema-pieces.ts';
import type { DurationInput, EventTimeConfig } from '../config.ts';
import { mapEventTime } from '../durations.ts';
import { declaredColumnTypes } from '../column-types.ts';
import { checkEventTimeRanges } from '../ranges.ts';
import { clip, str } from '../text.ts';
import { defineNode, type Assert, type SchemaMatches } from '../definition.ts';
import { eventTimeField } from '../shared-fields.ts';

/** `eventTime.field` naming the record's own Kafka timestamp instead of a column. */
export const KAFKA_TIMESTAMP = 'kafka-timestamp';

export type KafkaStartFrom = 'earliest' | 'latest' | 'group-offsets' | { timestamp: number | string };

/**
 * `source.kafka`. Exactly one of `topic`, `topics`, `topicPattern`. Each partition is a split
 * (owned by one subtask, as Flink's KafkaSourceEnumerator assigns them); every checkpoint stores
 * each partition's next offset, and a restore continues there whatever the group's offsets say.
 */
export interface KafkaSourceConfig {
  /** `host:port,host:port`. */
  bootstrap: string;
  topic?: string;
  topics?: string[];
  /** A JavaScript regular expression matched against whole topic names (Flink's `topic-pattern`). */
  topicPattern?: string;
  /** Each record's value: a JSON object, a CSV line of the declared columns, or raw text. */
  format: 'jsonl' | 'csv' | 'raw';
  /** Where a job without a checkpoint starts; partitions found later always start at their earliest. */
  startFrom?: KafkaStartFrom;
  /** `latest`: bounded, ends at the offsets that were the latest when the job started. */
  stopAt?: 'latest';
  /** Consumer group: offsets are committed there after each completed checkpoint (for monitoring only). */
  group?: string;
  /** `field: 'kafka-timestamp'` takes each record's Kafka timestamp. */
  eventTime?: EventTimeConfig;
  /**
   * `eventTime.idleTimeout` written at the top level, as the config reads (Flink's
   * `scan.watermark.idle-timeout` is a table option too): normalizing moves it into `eventTime`.
   */
  idleTimeout?: DurationInput;
  /** Declared columns (name -> Flink SQL type); csv needs them (its lines carry no header). */
  columns?: Record<string, string>;
  onBadRecord?: 'skip' | 'fail';
}

/** What an absent key means. */
export const KAFKA_SOURCE_DEFAULTS = {
  startFrom: 'earliest',
  onBadRecord: 'fail',
  /** New partitions are looked for this often (Flink: `scan.topic-partition-discovery.interval`). */
  discoveryIntervalMs: 5000,
} as const;

/** The column of a `raw` record without declared columns (Flink's raw format has one column). */
export const RAW_COLUMN = 'value';

const configSchema = z.strictObject({
  bootstrap: nonEmpty.meta({ description: "Brokers: 'host:port,host:port'" }),
  topic: nonEmpty.optional(),
  topics: z.array(nonEmpty).min(1).optional(),
  topicPattern: nonEmpty.optional().meta({ description: 'Regular expression matched against whole topic names' }),
  format: z.enum(['jsonl', 'csv', 'raw']),
  startFrom: z
    .union([
      z.enum(['earliest', 'latest', 'group-offsets']),
      z.strictObject({
        timestamp: z.union([z.number(), nonEmpty]).meta({ description: 'Epoch milliseconds or ISO-8601' }),
      }),
    ])
    .optional(),
  stopAt: z.literal('latest').optional(),
  group: nonEmpty.optional(),
  eventTime: eventTime.optional(),
  idleTimeout: duration.optional().meta({ description: 'The same as eventTime.idleTimeout (give one of them)' }),
  columns: z
    .record(z.string(), z.string())
    .optional()
    .meta({ description: 'Declared columns: name -> Flink SQL type' }),
  onBadRecord: z.enum(['skip', 'fail']).optional(),
});
// Compile-time proof: the schema and KafkaSourceConfig describe the same configs, key for key.
export type _ConfigSchemaCheck = Assert<SchemaMatches<typeof configSchema, KafkaSourceConfig>>;

/** The topics a config names, as text (summary, messages). */
export function kafkaTopicsText(c: Partial<KafkaSourceConfig>): string {
  if (c.topicPattern) return `/${c.topicPattern}/`;
  return c.topics?.join(', ') ?? c.topic ?? '';
}

export const kafkaSource = defineNode<'source.kafka', KafkaSourceConfig>({
  type: 'source.kafka',
  palette: {
    label: 'Kafka source',
    group: 'Sources',
    idPrefix: 'kafka-source',
    description: 'Reads Kafka topics: partitions spread over the subtasks, offsets checkpointed (exactly once).',
    // a log of segments
    icon: 'M4 6h16v4H4z M4 14h16v4H4z M8 6v4 M12 6v4 M8 14v4 M12 14v4 M16 14v4',
    newConfig: () => ({ bootstrap: 'localhost:9092', topic: 'orders', format: 'jsonl' }),
    summary: (c) =>
      clip(`${str(c.format) || '?'} ${kafkaTopicsText(c) || '(no topic)'}${c.stopAt ? ' · bounded' : ''}`),
  },
  ports: { outputs: ['out'], minInputs: 0, maxInputs: 0 },
  configSchema,
  check: (c, ctx) => {
    const named = [c.topic, c.topics, c.topicPattern].filter((x) => x !== undefined).length;
    if (named !== 1) ctx.error('topic', 'name exactly one of topic, topics and topicPattern');
    if (c.topicPattern !== undefined) {
      try {
        new RegExp(c.topicPattern);
      } catch (e) {
        ctx.error('topicPattern', `not a regular expression: ${(e as Error).message}`);
      }
    }
    if (c.format === 'csv' && !c.columns) ctx.error('columns', 'csv records carry no header: declare the columns');
    if (c.startFrom === 'group-offsets' && !c.group) ctx.error('group', "startFrom 'group-offsets' needs a group");
    const ts = typeof c.startFrom === 'object' ? c.startFrom.timestamp : undefined;
    if (typeof ts === 'string' && Number.isNaN(Date.parse(ts)))
      ctx.error('startFrom.timestamp', `'${ts}' is not an ISO-8601 time`);
    if (c.format === 'raw' && c.columns && Object.keys(c.columns).length !== 1)
      ctx.error('columns', 'a raw record is one column');
    if (c.idleTimeout !== undefined && !c.eventTime)
      ctx.error('idleTimeout', 'an idle timeout holds watermarks back only with eventTime: set eventTime too');
    if (c.idleTimeout !== undefined && c.eventTime?.idleTimeout !== undefined)
      ctx.error('idleTimeout', 'given twice, here and as eventTime.idleTimeout: keep one');
  },
  completionColumns: (c) => kafkaColumns(c) ?? [],
  checkRanges: (c, r) => {
    checkEventTimeRanges(r, c.eventTime);
    r.timer('idleTimeout', c.idleTimeout);
  },
  columnTypes: (c) => declaredColumnTypes(c.columns ?? (c.format === 'raw' ? { [RAW_COLUMN]: 'STRING' } : {})),
  mapDurations: (c, f) => {
    const { idleTimeout, ...rest } = c;
    // The top-level alias lives in eventTime from here on: the runtime and the export read it there.
    const et = c.eventTime && idleTimeout !== undefined ? { ...c.eventTime, idleTimeout } : c.eventTime;
    return et ? { ...rest, eventTime: mapEventTime(et, f) } : { ...c };
  },
  eventTime: { has: (c) => !!c.eventTime, external: (c) => c.eventTime?.field === KAFKA_TIMESTAMP },
  sourceColumns: (c) => kafkaColumns(c),
  defaults: KAFKA_SOURCE_DEFAULTS,
  fields: [
    { kind: 'text', path: 'bootstrap', label: 'Bootstrap servers', placeholder: 'localhost:9092', empty: '' },
    { kind: 'text', path: 'topic', label: 'Topic', help: 'Or topicPattern (a regular expression)' },
    { kind: 'text', path: 'topicPattern', label: 'Topic pattern', when: (c) => c.topic === undefined },
    {
      kind: 'select',
      path: 'format',
      label: 'Format',
      options: [
        { value: 'jsonl', label: 'JSON (one object per record)' },
        { value: 'csv', label: 'CSV (the declared columns, no header)' },
        { value: 'raw', label: 'Raw (the value as text)' },
      ],
      empty: 'jsonl',
    },
    {
      kind: 'select',
      path: 'startFrom',
      label: 'Start from',
      unset: `default (${KAFKA_SOURCE_DEFAULTS.startFrom})`,
      options: [
        { value: 'earliest', label: 'earliest offsets' },
        { value: 'latest', label: 'latest offsets' },
        { value: 'group-offsets', label: "the group's committed offsets" },
      ],
    },
    {
      kind: 'select',
      path: 'stopAt',
      label: 'Stop at',
      unset: 'never (unbounded)',
      options: [{ value: 'latest', label: 'the latest offsets at start (bounded)' }],
    },
    { kind: 'text', path: 'group', label: 'Consumer group', help: 'Offsets are committed there after each checkpoint' },
    {
      kind: 'select',
      path: 'onBadRecord',
      label: 'On a bad record',
      unset: `default (${KAFKA_SOURCE_DEFAULTS.onBadRecord})`,
      options: [
        { value: 'skip', label: 'skip and count it' },
        { value: 'fail', label: 'fail the job' },
      ],
    },
    { kind: 'kafkaTest', testId: 'kafka-source-test' },
    {
      kind: 'columns',
      path: 'columns',
      label: 'Columns',
      placeholder: 'id BIGINT, amount DOUBLE',
      help: 'Name and Flink SQL type (csv needs them; Test connection infers them from sampled records)',
    },
    eventTimeField(),
    {
      kind: 'note',
      text: () =>
        `Event time '${KAFKA_TIMESTAMP}' takes each record's Kafka timestamp. Watermarks are kept per partition (an idle partition stops holding them back after the idle timeout).`,
    },
  ],
});

function kafkaColumns(c: Partial<KafkaSourceConfig>): string[] | null {
  if (c.columns) return Object.keys(c.columns);
  return c.format === 'raw' ? [RAW_COLUMN] : null;
}
