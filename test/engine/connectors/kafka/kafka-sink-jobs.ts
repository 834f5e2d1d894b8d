/**
 * Jobs and references for the `sink.kafka` tests: generated records appended (one message per seq),
 * and a per-key aggregate upserted (the last message per key is the final aggregate). The references
 * are the `sink.postgres` tests' plain loops over the generator's own record function.
 */
import type { KafkaRecord } from '../../../support/kafka-broker.ts';
import { appendJob as pgAppendJob } from '../postgres/pg-sink-jobs.ts';

export { appendReference, upsertReference } from '../postgres/pg-sink-jobs.ts';

export interface KafkaJobOptions {
  name: string;
  bootstrap: string;
  topic: string;
  count: number;
  guarantee?: 'exactly-once' | 'at-least-once';
  rate?: number;
  parallelism?: number;
  interval?: string;
  attempts?: number;
}

/** The `sink.postgres` tests' settings and generator, so both sinks are tested on the same records. */
function base(o: KafkaJobOptions) {
  const pg = pgAppendJob({ ...o, url: '', table: '' });
  return { settings: pg.settings, generator: pg.nodes[0] };
}

function sink(o: KafkaJobOptions, id: string, topic: string, key?: string) {
  return {
    id,
    type: 'sink.kafka',
    config: {
      bootstrap: o.bootstrap,
      topic,
      format: 'jsonl',
      guarantee: o.guarantee ?? 'exactly-once',
      ...(key ? { key } : {}),
    },
  };
}

/** gen -> sink.kafka 'ka': one message per generated record. */
export function appendJob(o: KafkaJobOptions) {
  return {
    format: 'weir.job/v1',
    name: o.name,
    settings: base(o).settings,
    nodes: [base(o).generator, sink(o, 'ka', o.topic)],
    edges: [{ from: 'gen', to: 'ka' }],
  };
}

/** Both at once: gen -> 'ka' (append) into `topic`; gen -> aggregate per key -> 'ku' (upsert by key) into `upsertTopic`. */
export function appendAndUpsertJob(o: KafkaJobOptions & { upsertTopic: string }) {
  return {
    format: 'weir.job/v1',
    name: o.name,
    settings: base(o).settings,
    nodes: [
      base(o).generator,
      sink(o, 'ka', o.topic),
      { id: 'agg', type: 'aggregate', config: { keyBy: 'key', aggregates: 'COUNT(*) AS n, SUM(value) AS total' } },
      sink(o, 'ku', o.upsertTopic, 'key'),
    ],
    edges: [
      { from: 'gen', to: 'ka' },
      { from: 'gen', to: 'agg' },
      { from: 'agg', to: 'ku' },
    ],
  };
}

/** `seq|key|value|ts` per appended message, sorted. */
export function appendedRows(records: readonly KafkaRecord[]): string[] {
  return records
    .map((r) => {
      const v = JSON.parse(r.value!) as Record<string, unknown>;
      return `${v.seq}|${v.key}|${v.value}|${v.ts}`;
    })
    .sort();
}

/** The upsert topic materialized as upsert-kafka reads it (last message per key, tombstones delete): `key|n|total`, sorted. */
export function upsertedRows(records: readonly KafkaRecord[]): string[] {
  const byKey = new Map<string, string>();
  for (const r of records) {
    if (r.value === null) byKey.delete(r.key!);
    else {
      const v = JSON.parse(r.value) as Record<string, unknown>;
      byKey.set(r.key!, `${v.key}|${v.n}|${v.total}`);
    }
  }
  return [...byKey.values()].sort();
}
