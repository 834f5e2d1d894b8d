/** Flink SQL `kafka` tables read back as `source.kafka`: the inverse of export/flink-sql/kafka-source.ts. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { importFlinkSql } from '../../../../engine/import/flink-sql/index.ts';
import { exportFlinkSql } from '../../../../engine/export/flink-sql/index.ts';
import { validateJob } from '../../../../engine/graph/validate.ts';

const SINK = `CREATE TABLE out_t (id BIGINT) WITH ('connector' = 'print');`;

function sourceOf(sql: string) {
  const { job, problems } = importFlinkSql(`${sql}\n${SINK}\nINSERT INTO out_t SELECT id FROM src;`);
  return { node: job.nodes.find((n) => n.id === 'src'), problems };
}

test('a kafka table: bootstrap, topics, start and end, group, read_committed, json and its parse errors', () => {
  const { node, problems } = sourceOf(`CREATE TABLE src (id BIGINT, name STRING) WITH (
    'connector' = 'kafka', 'properties.bootstrap.servers' = 'b1:9092,b2:9092', 'topic' = 'a;b',
    'scan.startup.mode' = 'latest-offset', 'scan.bounded.mode' = 'latest-offset',
    'properties.group.id' = 'g', 'properties.isolation.level' = 'read_committed',
    'format' = 'json', 'json.ignore-parse-errors' = 'true');`);
  assert.deepEqual(problems, []);
  assert.deepEqual(node && { id: node.id, type: node.type, config: node.config }, {
    id: 'src',
    type: 'source.kafka',
    config: {
      bootstrap: 'b1:9092,b2:9092',
      format: 'jsonl',
      topics: ['a', 'b'],
      startFrom: 'latest',
      stopAt: 'latest',
      group: 'g',
      columns: { id: 'BIGINT', name: 'STRING' },
      onBadRecord: 'skip',
    },
  });
});

test("Flink's defaults apply to options left out: group-offsets needs a group id", () => {
  const { node, problems } = sourceOf(
    `CREATE TABLE src (id BIGINT) WITH ('connector' = 'kafka', 'topic-pattern' = 'orders-.*', 'format' = 'csv', 'properties.isolation.level' = 'read_uncommitted');`,
  );
  assert.equal(node?.type, 'source.kafka');
  assert.equal((node?.config as { topicPattern?: string }).topicPattern, 'orders-.*');
  assert.equal((node?.config as { startFrom?: string }).startFrom, 'group-offsets');
  assert.match(problems.map((p) => p.message).join('\n'), /group-offsets without properties\.group\.id/);
  assert.match(problems.map((p) => p.message).join('\n'), /Weir reads Kafka read_committed/);
});

test("a watermark on the 'timestamp' metadata column is the record's Kafka timestamp as event time", () => {
  const { node, problems } = sourceOf(`CREATE TABLE src (
    id BIGINT,
    kts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp' VIRTUAL,
    WATERMARK FOR kts AS kts - INTERVAL '2' SECOND
  ) WITH ('connector' = 'kafka', 'topic' = 't', 'properties.bootstrap.servers' = 'k:9092',
    'scan.startup.mode' = 'earliest-offset', 'format' = 'raw');`);
  assert.deepEqual(problems, []);
  assert.deepEqual((node?.config as { eventTime?: unknown }).eventTime, {
    field: 'kafka-timestamp',
    maxOutOfOrderness: '1999ms',
  });
  assert.equal((node?.config as { format?: string }).format, 'raw');
});

test('a format Weir does not read is reported and the table left out', () => {
  const { node, problems } = sourceOf(
    `CREATE TABLE src (id BIGINT) WITH ('connector' = 'kafka', 'topic' = 't', 'format' = 'avro');`,
  );
  assert.equal(node, undefined);
  assert.match(problems.map((p) => p.message).join('\n'), /Kafka format 'avro' is not read by Weir/);
});

test('export then import gives the source back, kafka-timestamp event time and timestamp start included', () => {
  const doc = {
    format: 'weir.job/v1',
    name: 'k',
    nodes: [
      {
        id: 'src',
        type: 'source.kafka',
        config: {
          bootstrap: 'localhost:9092',
          topic: 'orders',
          format: 'jsonl',
          startFrom: { timestamp: 1700000000000 },
          group: 'g',
          columns: { id: 'BIGINT' },
          eventTime: { field: 'kafka-timestamp', maxOutOfOrderness: '5s' },
        },
      },
      { id: 'out', type: 'sink.preview', config: {} },
    ],
    edges: [{ from: 'src', to: 'out' }],
  };
  const v = validateJob(doc);
  assert.ok(v.ok, JSON.stringify(v.problems));
  const { text } = exportFlinkSql(v.job);
  assert.match(text, /rowtime TIMESTAMP_LTZ\(3\) METADATA FROM 'timestamp' VIRTUAL/);
  const back = importFlinkSql(text).job.nodes.find((n) => n.type === 'source.kafka');
  assert.deepEqual(back?.config, doc.nodes[0].config);
});
