/**
 * The parts of kafkajs below its public API that the Kafka source uses. kafkajs's consumer only
 * reads through a consumer group (its partitions assigned by the group, its offsets the group's),
 * while a Flink-style source assigns partitions itself and keeps offsets in its checkpoints; so the
 * source drives kafkajs's own `Cluster` (metadata, ListOffsets, Fetch, OffsetCommit). Aborted
 * transactions are filtered by aborted-transactions.ts, not by kafkajs's `Batch` (which gets them wrong).
 * Typed here as far as Weir reads them (kafkajs 2.2.4).
 */
declare module 'kafkajs/src/cluster/index.js' {
  import type { Broker, KafkaMessage, PartitionMetadata } from 'kafkajs';

  export interface RawFetchPartition {
    partition: number;
    errorCode: number;
    highWatermark: string;
    lastStableOffset?: string;
    /** In the order the broker aborted them (aborted-transactions.ts). */
    abortedTransactions: { producerId: string; firstOffset: string }[] | null;
    /** Control records and aborted ones included; possibly some before the fetched offset. */
    messages: (KafkaMessage & {
      isControlRecord?: boolean;
      batchContext?: { producerId: string; inTransaction: boolean };
    })[];
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

declare module 'kafkajs/src/loggers/index.js' {
  export const LEVELS: { NOTHING: number; ERROR: number };
  export function createLogger(options: { level: number; logCreator: unknown }): unknown;
}

declare module 'kafkajs/src/network/socketFactory.js' {
  export default function defaultSocketFactory(): unknown;
}
