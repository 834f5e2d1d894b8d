/**
 * A `kafka` table the script reads, as `source.kafka`: the inverse of
 * export/flink-sql/kafka-source.ts. Flink's defaults apply to options left out (`scan.startup.mode`
 * is `group-offsets`). A watermark on the `timestamp` metadata column is `kafka-timestamp` event time.
 */
import type { EventTimeConfig, KafkaSourceConfig } from '../../graph/types.ts';
import type { JobBuilder } from './builder.ts';
import type { TableStatement } from './statements.ts';
import { intervalsIn, weirDuration } from './values.ts';
import { KAFKA_TIMESTAMP, kafkaSource } from '../../nodes/source-kafka/definition.ts';

const FORMATS: Record<string, KafkaSourceConfig['format']> = { json: 'jsonl', csv: 'csv', raw: 'raw' };

/** Event time from a watermark on the record's Kafka timestamp (a `METADATA FROM 'timestamp'` column), else null. */
export function kafkaTimestampEventTime(t: TableStatement): EventTimeConfig | null {
  const wm = t.watermark;
  if (!wm || !t.metadata.some((m) => m.name === wm.column && m.key === 'timestamp')) return null;
  const ooo = Math.max(0, -intervalsIn(wm.expr).ms - 1);
  return { field: KAFKA_TIMESTAMP, ...(ooo > 0 ? { maxOutOfOrderness: weirDuration(ooo) } : {}) };
}

function startFrom(b: JobBuilder, t: TableStatement): KafkaSourceConfig['startFrom'] {
  const o = t.options;
  const mode = o['scan.startup.mode'] ?? 'group-offsets';
  if (mode === 'earliest-offset') return 'earliest';
  if (mode === 'latest-offset') return 'latest';
  if (mode === 'group-offsets') return 'group-offsets';
  if (mode === 'timestamp') return { timestamp: Number(o['scan.startup.timestamp-millis'] ?? 0) };
  b.problem(
    t.pos,
    `table '${t.name}': scan.startup.mode '${mode}' has no Weir equivalent; it starts at the earliest offsets`,
  );
  return 'earliest';
}

export function importKafkaSource(
  b: JobBuilder,
  t: TableStatement,
  id: string,
  eventTime: EventTimeConfig | undefined,
): boolean {
  const o = t.options;
  const format = FORMATS[(o.format ?? o['value.format'] ?? '').toLowerCase()];
  if (!format) {
    b.problem(
      t.pos,
      `table '${t.name}': Kafka format '${o.format ?? o['value.format'] ?? ''}' is not read by Weir (json, csv and raw are); left out`,
      'error',
    );
    return false;
  }
  const config: KafkaSourceConfig = { bootstrap: o['properties.bootstrap.servers'] ?? 'localhost:9092', format };
  if (o['topic-pattern']) config.topicPattern = o['topic-pattern'];
  else {
    const topics = (o.topic ?? t.name).split(';').map((x) => x.trim());
    if (topics.length > 1) config.topics = topics;
    else config.topic = topics[0];
  }
  const start = startFrom(b, t);
  if (start !== 'earliest') config.startFrom = start;
  const bounded = o['scan.bounded.mode'];
  if (bounded === 'latest-offset') config.stopAt = 'latest';
  else if (bounded && bounded !== 'unbounded')
    b.problem(
      t.pos,
      `table '${t.name}': scan.bounded.mode '${bounded}' has no Weir equivalent; the source is unbounded`,
    );
  if (o['properties.group.id']) config.group = o['properties.group.id'];
  if (start === 'group-offsets' && !config.group)
    b.problem(t.pos, `table '${t.name}': group-offsets without properties.group.id: set the source's group`, 'error');
  if ((o['properties.isolation.level'] ?? 'read_committed') !== 'read_committed')
    b.problem(t.pos, `table '${t.name}': Weir reads Kafka read_committed (not ${o['properties.isolation.level']})`);
  if (t.columns.length > 0) config.columns = Object.fromEntries(t.columns.map((c) => [c.name, c.type]));
  const ignore = o[`${format === 'jsonl' ? 'json' : format}.ignore-parse-errors`];
  if (ignore === 'true') config.onBadRecord = 'skip';
  if (eventTime) config.eventTime = eventTime;
  b.add({ id, type: kafkaSource.type, config }, t.pos, t.origin);
  return true;
}
