/**
 * The parts of kafkajs below its public API that the Kafka source uses. kafkajs's consumer only
 * reads through a consumer group (its partitions assigned by the group, its offsets the group's),
 * while a Flink-style source assigns partitions itself and keeps offsets in its checkpoints; so the
 * source drives kafkajs's own `Cluster` (metadata, ListOffsets, Fetch, OffsetCommit) and decodes
 * a fetch with kafkajs's own `Batch` (aborted transactions and control records filtered out).
 * Typed here as far as Weir reads them (kafkajs 2.2.4).
 */
declare module 'kafkajs/src/cluster/index.js' {
  import type { Broker, KafkaMessage, PartitionMetadata } from 'kafkajs';

  export interface RawFetchPartition {
    partition: number;
    errorCode: number;
    highWatermark: string;
    lastStableOffset?: string;
    abortedTransactions: unknown[];
    messages: KafkaMessage[];
  }
  export interface RawBroker {
    fetch(request: {
      isolationLevel: number;
      maxWaitTime: number;
      minBytes: number;
      maxBytes: number;
      topics: { topic: string; partitions: { partition: number; fetchOffset: string; maxBytes: number }[] }[];
    }): Promise<{ responses: { topicName: string; partitions: RawFetchPartition[] }[] }>;
    offsetCommit(request: {
      groupId: string;
      groupGenerationId: number;
      memberId: string;
      topics: { topic: string; partitions: { partition: number; offset: string }[] }[];
    }): Promise<unknown>;
    offsetFetch(request: {
      groupId: string;
      topics: { topic: string; partitions: { partition: number }[] }[];
    }): Promise<{ responses: { topic: string; partitions: { partition: number; offset: string }[] }[] }>;
  }
  export interface ClusterOptions {
    logger: unknown;
    socketFactory: unknown;
    brokers: string[];
    clientId: string;
    connectionTimeout: number;
    requestTimeout: number;
    enforceRequestTimeout: boolean;
    isolationLevel: number;
    allowAutoTopicCreation: boolean;
    retry?: { retries: number };
  }
  export default class Cluster {
    constructor(options: ClusterOptions);
    connect(): Promise<void>;
    disconnect(): Promise<void>;
    refreshMetadata(): Promise<void>;
    addMultipleTargetTopics(topics: string[]): Promise<void>;
    metadata(options?: {
      topics?: string[];
    }): Promise<{ topicMetadata: { topic: string; partitionMetadata: PartitionMetadata[] }[] }>;
    findTopicPartitionMetadata(topic: string): PartitionMetadata[];
    findLeaderForPartitions(topic: string, partitions: number[]): Record<string, number[]>;
    findBroker(options: { nodeId: string }): Promise<Broker & RawBroker>;
    findGroupCoordinator(options: { groupId: string }): Promise<Broker & RawBroker>;
    fetchTopicsOffset(
      topics: { topic: string; partitions: { partition: number }[]; fromBeginning?: boolean; fromTimestamp?: number }[],
    ): Promise<{ topic: string; partitions: { partition: number; offset: string }[] }[]>;
  }
}

declare module 'kafkajs/src/consumer/batch.js' {
  import type { KafkaMessage } from 'kafkajs';
  import type { RawFetchPartition } from 'kafkajs/src/cluster/index.js';
  export default class Batch {
    constructor(topic: string, fetchedOffset: string, partitionData: RawFetchPartition);
    /** Records at or after the fetched offset, control records and aborted ones included. */
    readonly messagesWithinOffset: (KafkaMessage & { isControlRecord?: boolean })[];
    /** Those a read_committed consumer sees. */
    readonly messages: KafkaMessage[];
  }
}

declare module 'kafkajs/src/loggers/index.js' {
  export const LEVELS: { NOTHING: number; ERROR: number };
  export function createLogger(options: { level: number; logCreator: unknown }): unknown;
}

declare module 'kafkajs/src/network/socketFactory.js' {
  export default function defaultSocketFactory(): unknown;
}
