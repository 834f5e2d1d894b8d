/**
 * A Kafka connection for a source: metadata, offsets, fetches and group commits, through kafkajs's
 * own Cluster (kafkajs-internals.d.ts says why not its consumer). Reads are `read_committed`
 * (Flink's `properties.isolation.level`), so a transactional producer's aborted records and its
 * commit markers are never rows (filtered as the Java consumer does: aborted-transactions.ts, not
 * by kafkajs's Batch, which gets it wrong), and the latest offset is the last stable one.
 * kafkajs logs nothing here: the task process's stdout is not a console.
 */
import type Cluster from 'kafkajs/src/cluster/index.js';
import type { RawFetchPartition } from 'kafkajs/src/cluster/index.js';
import { committedRecords } from './aborted-transactions.ts';

const READ_COMMITTED = 1;
/** Kafka's ListOffsets sentinels: -2 the earliest offset, -1 the latest (the last stable, read_committed). */
const EARLIEST = -2;
const LATEST = -1;
const FETCH_MAX_BYTES = 4 << 20;
const PARTITION_MAX_BYTES = 1 << 20;

export interface TopicPartition {
  topic: string;
  partition: number;
}

/** One fetched record, in offset order; `visible` false for control records and aborted ones. */
export interface FetchedRecord {
  offset: number;
  visible: boolean;
  timestamp: number;
  key: Buffer | null;
  value: Buffer | null;
}

export interface FetchedPartition extends TopicPartition {
  records: FetchedRecord[];
  /** The partition's last stable offset when fetched (lag = this − next offset). */
  highWatermark: number;
}

export type OffsetSpec = 'earliest' | 'latest' | { timestamp: number };

export function parseBootstrap(bootstrap: string): string[] {
  return bootstrap
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/**
 * kafkajs's Cluster for `bootstrap`. kafkajs is imported here, on the first call, not with this
 * module: it is ~50 ms of CPU that every task process paid at start-up (issue 27) while most jobs
 * read no Kafka topic.
 */
async function createCluster(bootstrap: string, clientId: string): Promise<Cluster> {
  const [{ default: Cluster }, { createLogger, LEVELS }, { default: defaultSocketFactory }] = await Promise.all([
    import('kafkajs/src/cluster/index.js'),
    import('kafkajs/src/loggers/index.js'),
    import('kafkajs/src/network/socketFactory.js'),
  ]);
  return new Cluster({
    logger: createLogger({ level: LEVELS.NOTHING, logCreator: () => () => undefined }),
    socketFactory: defaultSocketFactory(),
    brokers: parseBootstrap(bootstrap),
    clientId,
    connectionTimeout: 3000,
    requestTimeout: 30000,
    enforceRequestTimeout: true,
    isolationLevel: READ_COMMITTED,
    // A source never creates the topics it reads.
    allowAutoTopicCreation: false,
    retry: { retries: 3 },
  });
}

export class KafkaCluster {
  private cluster: Promise<Cluster> | null = null;
  private connected = false;

  constructor(
    private readonly bootstrap: string,
    private readonly clientId: string,
  ) {}

  /** The kafkajs Cluster, created by the first call (every method is async, so none waits twice). */
  private client(): Promise<Cluster> {
    this.cluster ??= createCluster(this.bootstrap, this.clientId);
    return this.cluster;
  }

  async connect(): Promise<void> {
    if (this.connected) return;
    await (await this.client()).connect();
    this.connected = true;
  }

  async disconnect(): Promise<void> {
    this.connected = false;
    // Never created: nothing to close, and no reason to load kafkajs now.
    if (this.cluster) await (await this.cluster).disconnect();
  }

  /** Every topic (internal ones, `__…`, left out) with its partition count. */
  async listTopics(): Promise<{ topic: string; partitions: number }[]> {
    const md = await (await this.client()).metadata({ topics: [] });
    return md.topicMetadata
      .filter((t) => !t.topic.startsWith('__'))
      .map((t) => ({ topic: t.topic, partitions: t.partitionMetadata.length }))
      .sort((a, b) => a.topic.localeCompare(b.topic));
  }

  /** The partitions of `topics` as the brokers know them now (a missing topic has none). */
  async partitions(topics: readonly string[]): Promise<TopicPartition[]> {
    const cluster = await this.client();
    const md = await cluster.metadata({ topics: [...topics] });
    await cluster.addMultipleTargetTopics([...topics]);
    const out: TopicPartition[] = [];
    for (const t of md.topicMetadata)
      for (const p of t.partitionMetadata) out.push({ topic: t.topic, partition: p.partitionId });
    return out.sort((a, b) => a.topic.localeCompare(b.topic) || a.partition - b.partition);
  }

  /** The offset `spec` names in each partition (a timestamp: the first record at or after it, else the latest). */
  async offsets(parts: readonly TopicPartition[], spec: OffsetSpec): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    if (parts.length === 0) return out;
    const byTopic = groupByTopic(parts);
    const when = spec === 'earliest' ? EARLIEST : spec === 'latest' ? LATEST : spec.timestamp;
    const cluster = await this.client();
    const res = await cluster.fetchTopicsOffset(
      [...byTopic].map(([topic, ps]) => ({
        topic,
        partitions: ps.map((partition) => ({ partition })),
        fromTimestamp: when,
      })),
    );
    for (const t of res) for (const p of t.partitions) out.set(splitId(t.topic, p.partition), Number(p.offset));
    if (typeof spec === 'object') {
      // No record at or after the timestamp: Kafka answers -1; Flink then starts at the latest offset.
      const missing = parts.filter((p) => (out.get(splitId(p.topic, p.partition)) ?? -1) < 0);
      for (const [k, v] of await this.offsets(missing, 'latest')) out.set(k, v);
    }
    return out;
  }

  /** One fetch of every partition from `offsets`, waiting at most `maxWaitMs` for data. */
  async fetch(offsets: ReadonlyMap<string, number>, parts: readonly TopicPartition[], maxWaitMs: number) {
    const cluster = await this.client();
    const out: FetchedPartition[] = [];
    const byLeader = new Map<string, TopicPartition[]>();
    for (const [topic, ps] of groupByTopic(parts))
      for (const [leader, ids] of Object.entries(cluster.findLeaderForPartitions(topic, ps))) {
        const list = byLeader.get(leader) ?? [];
        for (const partition of ids) list.push({ topic, partition });
        byLeader.set(leader, list);
      }
    await Promise.all(
      [...byLeader].map(async ([nodeId, list]) => {
        const broker = await cluster.findBroker({ nodeId });
        const { responses } = await broker.fetch({
          isolationLevel: READ_COMMITTED,
          maxWaitTime: maxWaitMs,
          minBytes: 1,
          maxBytes: FETCH_MAX_BYTES,
          topics: [...groupByTopic(list)].map(([topic, ps]) => ({
            topic,
            partitions: ps.map((partition) => ({
              partition,
              fetchOffset: String(offsets.get(splitId(topic, partition))),
              maxBytes: PARTITION_MAX_BYTES,
            })),
          })),
        });
        for (const r of responses)
          for (const p of r.partitions) {
            const from = String(offsets.get(splitId(r.topicName, p.partition)));
            out.push({ ...decodePartition(from, p), topic: r.topicName, partition: p.partition });
          }
      }),
    );
    return out;
  }

  /** Commits `offsets` (next offsets, by split id) to `group` as a standalone consumer (no generation). */
  async commit(group: string, offsets: ReadonlyMap<string, number>): Promise<void> {
    const coordinator = await (await this.client()).findGroupCoordinator({ groupId: group });
    const byTopic = new Map<string, { partition: number; offset: string }[]>();
    for (const [id, offset] of offsets) {
      const { topic, partition } = parseSplitId(id);
      byTopic.set(topic, [...(byTopic.get(topic) ?? []), { partition, offset: String(offset) }]);
    }
    await coordinator.offsetCommit({
      groupId: group,
      groupGenerationId: -1,
      memberId: '',
      topics: [...byTopic].map(([topic, partitions]) => ({ topic, partitions })),
    });
  }

  /** The group's committed next offsets (absent: none committed). */
  async committed(group: string, parts: readonly TopicPartition[]): Promise<Map<string, number>> {
    const coordinator = await (await this.client()).findGroupCoordinator({ groupId: group });
    const res = await coordinator.offsetFetch({
      groupId: group,
      topics: [...groupByTopic(parts)].map(([topic, ps]) => ({
        topic,
        partitions: ps.map((partition) => ({ partition })),
      })),
    });
    const out = new Map<string, number>();
    for (const t of res.responses)
      for (const p of t.partitions) if (Number(p.offset) >= 0) out.set(splitId(t.topic, p.partition), Number(p.offset));
    return out;
  }
}

function decodePartition(from: string, p: RawFetchPartition) {
  // A fetch may start at the batch holding `from`: records before it were read already.
  const fetched = p.messages.filter((m) => Number(m.offset) >= Number(from));
  const visible = new Set(committedRecords(fetched, p.abortedTransactions));
  const records: FetchedRecord[] = fetched.map((m) => ({
    offset: Number(m.offset),
    visible: visible.has(m),
    timestamp: Number(m.timestamp),
    key: m.key ?? null,
    value: m.value ?? null,
  }));
  return { records, highWatermark: Number(p.lastStableOffset ?? p.highWatermark) };
}

/** The split id of a partition: `topic:partition` (topic names never hold ':'); the checkpoint's key. */
export function splitId(topic: string, partition: number): string {
  return `${topic}:${partition}`;
}

export function parseSplitId(id: string): TopicPartition {
  const i = id.lastIndexOf(':');
  return { topic: id.slice(0, i), partition: Number(id.slice(i + 1)) };
}

function groupByTopic(parts: readonly TopicPartition[]): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const { topic, partition } of parts) out.set(topic, [...(out.get(topic) ?? []), partition]);
  return out;
}
