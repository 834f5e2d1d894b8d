/**
 * `source.kafka`: Flink's KafkaSource on Weir's source contract (contracts/source.ts).
 * - Splits: each partition is owned by one subtask (partition-owner.ts); new partitions (and new
 *   topics matching `topicPattern`) are discovered every `discoveryIntervalMs` and start at their
 *   earliest offset, as in Flink. A bounded source (`stopAt: 'latest'`) discovers nothing later.
 * - Position Sn: each owned partition's next offset (kafka-positions.ts). A record counts as read
 *   once `read` returned it, so the barrier after it stores the offset after it: a restore neither
 *   loses nor repeats a record. The consumer group's offsets are never read on a restore.
 * - The group (when named) receives the offsets of a checkpoint only after that checkpoint
 *   completed everywhere (`notifyCheckpointComplete`), for monitoring; a failed commit is a notice.
 * - Watermarks per partition, combined (engine/time/split-watermarks.ts).
 */
import type { Row } from '../../contracts/operator.ts';
import {
  BadRecordError,
  type SourceContext,
  type SourceReader,
  type SourceReadResult,
} from '../../contracts/source.ts';
import type { KafkaSourceConfig } from '../../graph/types.ts';
import { KAFKA_SOURCE_DEFAULTS, KAFKA_TIMESTAMP, kafkaTopicsText } from '../../nodes/source-kafka/definition.ts';
import { SplitWatermarks, type CombinedWatermark } from '../../time/split-watermarks.ts';
import { eventTimeInRange, parseEventTime } from '../formats/event-time.ts';
import {
  KafkaCluster,
  parseSplitId,
  splitId,
  type FetchedRecord,
  type OffsetSpec,
  type TopicPartition,
} from './kafka-cluster.ts';
import { partitionOwner } from './partition-owner.ts';
import { restoredKafkaPositions, type KafkaPartitionPosition, type KafkaSourcePositions } from './kafka-positions.ts';
import { decodeValue, recordText } from './kafka-records.ts';

/** How long one fetch waits for data: also the longest a barrier waits behind an empty fetch. */
const FETCH_WAIT_MS = 100;

interface Split extends TopicPartition {
  id: string;
  offset: number;
  /** Bounded: the offset it ends at. */
  stop: number | null;
  /** The partition's last stable offset at the last fetch (lag = lastStable − offset). */
  lastStable: number;
}

export interface KafkaSourceTiming {
  maxOutOfOrderness: number;
  idleTimeout: number | null;
  /** Injectable for tests; default `Date.now`. */
  now?: () => number;
}

export class KafkaSourceReader implements SourceReader {
  private readonly cluster: KafkaCluster;
  private readonly splits = new Map<string, Split>();
  private readonly restored: Map<string, KafkaPartitionPosition>;
  private readonly watermarks: SplitWatermarks;
  private readonly now: () => number;
  private readonly bounded: boolean;
  private readonly pattern: RegExp | null;
  private started = false;
  private nextDiscovery = 0;
  /** Fetched records not yet returned, in fetch order per partition. */
  private pending: { split: Split; record: FetchedRecord }[] = [];

  constructor(
    private readonly cfg: KafkaSourceConfig,
    private readonly ctx: SourceContext,
    restored: readonly unknown[],
    timing: KafkaSourceTiming,
  ) {
    this.cluster = new KafkaCluster(cfg.bootstrap, `weir-${ctx.jobName ?? 'job'}-${ctx.subtask}`);
    this.restored = restoredKafkaPositions(restored);
    this.watermarks = new SplitWatermarks(timing.maxOutOfOrderness, timing.idleTimeout);
    this.now = timing.now ?? Date.now;
    this.bounded = cfg.stopAt === 'latest';
    this.pattern = cfg.topicPattern !== undefined ? new RegExp(`^(?:${cfg.topicPattern})$`) : null;
  }

  private where(): string {
    return `source.kafka (${this.cfg.bootstrap}, ${kafkaTopicsText(this.cfg)})`;
  }

  /** Connects and takes the partitions this subtask owns: restored ones at Sn, the others per startFrom. */
  private async start(): Promise<void> {
    try {
      await this.cluster.connect();
    } catch (e) {
      throw new Error(`${this.where()}: cannot connect: ${(e as Error).message}`);
    }
    const fresh = this.restored.size === 0;
    const mine = await this.ownedPartitions();
    if (mine.length === 0 && fresh && !this.pattern)
      throw new Error(`${this.where()}: the topic has no partitions (does it exist?)`);
    await this.addSplits(mine, fresh ? this.startSpec() : 'earliest');
    this.started = true;
    this.nextDiscovery = this.now() + KAFKA_SOURCE_DEFAULTS.discoveryIntervalMs;
  }

  private startSpec(): OffsetSpec | 'group-offsets' {
    const s = this.cfg.startFrom ?? KAFKA_SOURCE_DEFAULTS.startFrom;
    if (typeof s === 'object')
      return { timestamp: typeof s.timestamp === 'number' ? s.timestamp : Date.parse(s.timestamp) };
    return s;
  }

  private async topics(): Promise<string[]> {
    if (this.cfg.topic !== undefined) return [this.cfg.topic];
    if (this.cfg.topics !== undefined) return this.cfg.topics;
    return (await this.cluster.listTopics()).map((t) => t.topic).filter((t) => this.pattern!.test(t));
  }

  private async ownedPartitions(): Promise<TopicPartition[]> {
    const topics = await this.topics();
    if (topics.length === 0) return [];
    const all = await this.cluster.partitions(topics);
    return all.filter((p) => partitionOwner(p.topic, p.partition, this.ctx.parallelism) === this.ctx.subtask);
  }

  /** New splits: restored ones resume at Sn; the others start at `spec`. */
  private async addSplits(parts: TopicPartition[], spec: OffsetSpec | 'group-offsets'): Promise<void> {
    const added = parts.filter((p) => !this.splits.has(splitId(p.topic, p.partition)));
    if (added.length === 0) return;
    const unknown = added.filter((p) => !this.restored.has(splitId(p.topic, p.partition)));
    const starts = await this.startOffsets(unknown, spec);
    const stops = this.bounded ? await this.cluster.offsets(unknown, 'latest') : new Map<string, number>();
    const now = this.now();
    for (const p of added) {
      const id = splitId(p.topic, p.partition);
      const r = this.restored.get(id);
      const offset = r?.offset ?? starts.get(id) ?? 0;
      const stop = this.bounded ? (r ? (r.stop ?? null) : (stops.get(id) ?? 0)) : null;
      this.splits.set(id, { ...p, id, offset, stop, lastStable: offset });
      this.watermarks.add(id, r?.maxTimestamp ?? null, now);
      if (stop !== null && offset >= stop) this.watermarks.finish(id);
    }
  }

  private async startOffsets(parts: TopicPartition[], spec: OffsetSpec | 'group-offsets') {
    if (spec !== 'group-offsets') return this.cluster.offsets(parts, spec);
    const committed = await this.cluster.committed(this.cfg.group!, parts);
    const missing = parts.filter((p) => !committed.has(splitId(p.topic, p.partition)));
    if (missing.length > 0) {
      this.ctx.notice?.(
        `${this.where()}: group '${this.cfg.group}' has no offset for ${missing.length} partition(s); they start at their earliest offset`,
      );
      for (const [k, v] of await this.cluster.offsets(missing, 'earliest')) committed.set(k, v);
    }
    return committed;
  }

  private async discover(): Promise<void> {
    if (this.bounded || this.now() < this.nextDiscovery) return;
    this.nextDiscovery = this.now() + KAFKA_SOURCE_DEFAULTS.discoveryIntervalMs;
    await this.addSplits(await this.ownedPartitions(), 'earliest');
  }

  private active(): Split[] {
    return [...this.splits.values()].filter((s) => s.stop === null || s.offset < s.stop);
  }

  async read(max: number): Promise<SourceReadResult> {
    if (!this.started) await this.start();
    await this.discover();
    if (this.pending.length === 0) await this.fetch();
    const rows: Row[] = [];
    const ts: number[] = [];
    let taken = 0;
    while (taken < this.pending.length && rows.length < max) {
      const { split, record } = this.pending[taken++];
      if (record.offset < split.offset) continue; // fetched again after a refetch: already read
      if (split.stop !== null && record.offset >= split.stop) continue;
      split.offset = record.offset + 1;
      if (!record.visible) continue; // a transaction marker or an aborted record: Sn moves past it
      this.emit(split, record, rows, ts);
    }
    this.pending = this.pending.slice(taken);
    for (const s of this.splits.values()) if (s.stop !== null && s.offset >= s.stop) this.watermarks.finish(s.id);
    const end = this.bounded && this.pending.length === 0 && this.active().length === 0;
    return { rows, ts, end, waitMs: rows.length === 0 && !end ? 0 : undefined };
  }

  private async fetch(): Promise<void> {
    const active = this.active();
    if (active.length === 0) return;
    const offsets = new Map(active.map((s) => [s.id, s.offset]));
    let fetched;
    try {
      fetched = await this.cluster.fetch(offsets, active, FETCH_WAIT_MS);
    } catch (e) {
      throw new Error(`${this.where()}: fetch failed: ${(e as Error).message}`);
    }
    for (const f of fetched) {
      const split = this.splits.get(splitId(f.topic, f.partition));
      if (!split) continue;
      split.lastStable = f.highWatermark;
      for (const record of f.records) this.pending.push({ split, record });
    }
  }

  private emit(split: Split, record: FetchedRecord, rows: Row[], ts: number[]): void {
    const where = `${split.topic}/${split.partition}@${record.offset}`;
    const decoded = decodeValue(this.cfg, record.value);
    if (decoded === null) return;
    if ('bad' in decoded) return this.bad(where, decoded.bad, record);
    const t = this.eventTime(decoded.row, record);
    if (typeof t === 'string') return this.bad(where, t, record);
    this.watermarks.observe(split.id, t, this.now());
    rows.push(decoded.row);
    ts.push(t);
  }

  /** The record's event time (NaN without eventTime), or why it is a bad record. */
  private eventTime(row: Row, record: FetchedRecord): number | string {
    const field = this.cfg.eventTime?.field;
    if (field === undefined) return NaN;
    if (field === KAFKA_TIMESTAMP) return record.timestamp;
    const t = parseEventTime(row[field]);
    if (Number.isNaN(t)) return `field '${field}' is not a timestamp (epoch ms or ISO-8601)`;
    if (!eventTimeInRange(t)) return `field '${field}' = ${t} is outside the representable event-time range`;
    return t;
  }

  private bad(where: string, message: string, record: FetchedRecord): void {
    if ((this.cfg.onBadRecord ?? KAFKA_SOURCE_DEFAULTS.onBadRecord) === 'fail')
      throw new BadRecordError(`source.kafka ${where}: ${message}: ${recordText(record.value)}`);
    this.ctx.badRecord(where, message);
  }

  splitWatermark(): CombinedWatermark {
    return this.watermarks.combine(this.now());
  }

  position(): KafkaSourcePositions {
    const partitions: Record<string, KafkaPartitionPosition> = {};
    if (!this.started) {
      // Not connected yet: what was restored for this subtask's partitions stays Sn.
      for (const [id, p] of this.restored) {
        const { topic, partition } = parseSplitId(id);
        if (partitionOwner(topic, partition, this.ctx.parallelism) === this.ctx.subtask) partitions[id] = { ...p };
      }
      return { partitions };
    }
    for (const s of this.splits.values()) {
      const p: KafkaPartitionPosition = { offset: s.offset, maxTimestamp: this.watermarks.maxTimestamp(s.id) };
      if (s.stop !== null) p.stop = s.stop;
      partitions[s.id] = p;
    }
    return { partitions };
  }

  splitProgress(): Array<{ split: string; offset: number; lag: number }> {
    return [...this.splits.values()].map((s) => ({
      split: s.id,
      offset: s.offset,
      lag: Math.max(0, (s.stop ?? s.lastStable) - s.offset),
    }));
  }

  private commitFailed = false;

  async notifyCheckpointComplete(_checkpointId: number, position: unknown): Promise<void> {
    const group = this.cfg.group;
    const parts = (position as KafkaSourcePositions | undefined)?.partitions;
    if (!group || !parts || Object.keys(parts).length === 0) return;
    try {
      await this.cluster.commit(group, new Map(Object.entries(parts).map(([id, p]) => [id, p.offset])));
      this.commitFailed = false;
    } catch (e) {
      // Monitoring only: recovery never reads the group, so the job goes on.
      if (!this.commitFailed)
        this.ctx.notice?.(`${this.where()}: committing offsets to group '${group}' failed: ${(e as Error).message}`);
      this.commitFailed = true;
    }
  }

  async close(): Promise<void> {
    await this.cluster.disconnect().catch(() => undefined);
  }
}
