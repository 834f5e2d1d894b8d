/**
 * `source.kafka` in Flink SQL: the `kafka` connector (flink-sql-connector-kafka), reading
 * `read_committed` as Weir does, from the same start (`scan.startup.mode`) to the same end
 * (`scan.bounded.mode = latest-offset` for `stopAt: 'latest'`). Event time from a column is a
 * computed rowtime (event-time.ts); `kafka-timestamp` is the record's `timestamp` metadata column.
 */
import type { JobNodeOf } from '../../graph/types.ts';
import type { Col, ExportContext } from './context.ts';
import { rowtimeExpression, watermarkClause } from './event-time.ts';
import { quoteIdent, withOptions } from './identifiers.ts';
import {
  KAFKA_SOURCE_DEFAULTS,
  KAFKA_TIMESTAMP,
  RAW_COLUMN,
  kafkaSource,
} from '../../nodes/source-kafka/definition.ts';

type KafkaNode = JobNodeOf<typeof kafkaSource.type> & { parallelism: number };

export function kafkaSourceColumns(ctx: ExportContext, node: KafkaNode): Col[] {
  const c = node.config;
  if (c.format === 'raw') {
    const name = c.columns ? Object.keys(c.columns)[0] : RAW_COLUMN;
    return [{ name, type: 'STRING', certain: true }];
  }
  const cols = Object.entries(c.columns ?? {}).map(([name, type]) => ({ name, type: type.trim(), certain: true }));
  if (cols.length === 0)
    ctx.warn(
      node,
      'config.columns',
      'no declared columns: declare config.columns (name -> Flink SQL type; Test connection infers them) for a complete CREATE TABLE',
    );
  const et = c.eventTime?.field;
  if (et && et !== KAFKA_TIMESTAMP && !cols.some((col) => col.name === et))
    cols.push({ name: et, type: 'BIGINT', certain: true });
  // Weir keeps a TIMESTAMP column's text as it is; Flink's json and csv formats reject ISO-8601 'T…Z'.
  return cols.map((col) => (/^TIMESTAMP/i.test(col.type) ? { ...col, type: 'STRING' } : col));
}

/** `scan.startup.*` for Weir's `startFrom`. */
function startupOptions(c: KafkaNode['config']): Array<[string, string]> {
  const s = c.startFrom ?? KAFKA_SOURCE_DEFAULTS.startFrom;
  if (typeof s === 'object') {
    const ms = typeof s.timestamp === 'number' ? s.timestamp : Date.parse(s.timestamp);
    return [
      ['scan.startup.mode', 'timestamp'],
      ['scan.startup.timestamp-millis', String(ms)],
    ];
  }
  if (s === 'group-offsets')
    // Partitions without a committed offset start at the earliest, as in Weir.
    return [
      ['scan.startup.mode', 'group-offsets'],
      ['properties.auto.offset.reset', 'earliest'],
    ];
  return [['scan.startup.mode', `${s}-offset`]];
}

function topicOptions(c: KafkaNode['config']): Array<[string, string]> {
  if (c.topicPattern !== undefined) return [['topic-pattern', c.topicPattern]];
  return [['topic', c.topics ? c.topics.join(';') : c.topic!]];
}

export function emitKafkaSource(ctx: ExportContext, node: KafkaNode): void {
  const c = node.config;
  const cols = ctx.sourceColumns.get(node.id) ?? [];
  const lines = cols.map((col) => `  ${quoteIdent(col.name)} ${col.type}`);
  const comments: string[] = [
    ctx.origin(node),
    "-- Needs flink-sql-connector-kafka on Flink's classpath. Offsets live in Flink's checkpoints, as in Weir.",
  ];
  const onBad = (c.onBadRecord ?? KAFKA_SOURCE_DEFAULTS.onBadRecord) === 'fail' ? 'fail' : 'skip';
  const filters: string[] = [];
  let rowtime: string | null = null;
  if (c.eventTime) {
    rowtime = ctx.rowtimeName;
    if (c.eventTime.field === KAFKA_TIMESTAMP) {
      lines.push(`  ${quoteIdent(rowtime)} TIMESTAMP_LTZ(3) METADATA FROM 'timestamp' VIRTUAL`);
    } else {
      const rt = rowtimeExpression(
        c.eventTime.field,
        cols.find((col) => col.name === c.eventTime!.field),
        onBad,
      );
      if (rt.note) comments.push(`-- ${rt.note}`);
      lines.push(`  ${quoteIdent(rowtime)} AS ${rt.expr}`);
      if (onBad === 'skip') filters.push(`COALESCE(${rt.valid}, FALSE)`);
    }
    lines.push(`  ${watermarkClause(rowtime, c.eventTime)}`);
  }
  const format = c.format === 'jsonl' ? 'json' : c.format;
  const options: Array<[string, string]> = [
    ['connector', 'kafka'],
    ['properties.bootstrap.servers', c.bootstrap],
    ...topicOptions(c),
    ...startupOptions(c),
  ];
  if (c.stopAt === 'latest') options.push(['scan.bounded.mode', 'latest-offset']);
  else
    options.push(['scan.topic-partition-discovery.interval', `${KAFKA_SOURCE_DEFAULTS.discoveryIntervalMs / 1000} s`]);
  options.push(['properties.isolation.level', 'read_committed']);
  if (c.group) options.push(['properties.group.id', c.group]);
  options.push(['format', format]);
  if (format !== 'raw') options.push([`${format}.ignore-parse-errors`, String(onBad === 'skip')]);
  if (onBad === 'skip' && format !== 'raw')
    comments.push('-- onBadRecord skip: Flink skips unparsable records and sets fields of the wrong type to NULL.');
  const name = quoteIdent(node.id);
  const table = filters.length > 0 ? quoteIdent(`${node.id}__raw`) : name;
  ctx.emit(`${comments.join('\n')}\nCREATE TABLE ${table} (\n${lines.join(',\n')}\n) ${withOptions(options)};`);
  if (filters.length > 0) {
    const select = [...cols.map((col) => quoteIdent(col.name)), quoteIdent(rowtime!)];
    ctx.emit(
      `${ctx.origin(node)}: without records whose event time is not valid\nCREATE VIEW ${name} AS\nSELECT ${select.join(', ')}\nFROM ${table}\nWHERE ${filters.join('\n  AND ')};`,
    );
  }
  ctx.relations.set(node.id, { sql: name, columns: cols, rowtime });
}
