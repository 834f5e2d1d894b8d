/** Source node -> reader, and its event-time settings (defaults: generator's `ts`, no idleness): one entry per source type. */
import type { EventTimeConfig, JobNode, JobNodeOf, NodeType } from '../graph/types.ts';
import { parseDuration } from '../graph/units.ts';
import { NEXMARK_DEFAULT_OUT_OF_ORDERNESS_MS } from '../graph/nexmark.ts';
import type { SourceContext, SourceReader } from '../contracts/source.ts';
import { FileSourceReader } from './file-source.ts';
import { GeneratorSourceReader, generatorParams } from './generator-source.ts';
import { NexmarkSourceReader } from './nexmark/nexmark-source.ts';
import { nexmarkParams } from './nexmark/nexmark-generator.ts';
import { PostgresSnapshotReader } from './postgres/snapshot-source.ts';
import { PostgresCdcReader } from './postgres/cdc-source.ts';
import { fileSource } from '../nodes/source-file/definition.ts';
import { EVENT_TIME_DEFAULTS } from '../nodes/config.ts';
import { generatorSource } from '../nodes/source-generator/definition.ts';
import { nexmarkSource } from '../nodes/source-nexmark/definition.ts';
import { postgresSource } from '../nodes/source-postgres/definition.ts';
import { kafkaSource } from '../nodes/source-kafka/definition.ts';
import { KafkaSourceReader } from './kafka/kafka-source.ts';

export interface SourceWatermarkSettings {
  maxOutOfOrderness: number;
  idleTimeout: number | null;
}

/** What the runtime needs of one source type: its reader and its watermark settings. */
interface SourceConnector<T extends NodeType> {
  reader(node: JobNodeOf<T>, ctx: SourceContext, restored: unknown[], columns: readonly string[] | null): SourceReader;
  watermarks(node: JobNodeOf<T>): SourceWatermarkSettings;
}

const present = (restored: unknown[]) => restored.filter((r) => r !== undefined);

function maxOutOfOrdernessOf(d: string | number | undefined): number | undefined {
  return d === undefined ? undefined : parseDuration(d);
}

/** From the node's `eventTime` (parts left out: EVENT_TIME_DEFAULTS); `fallback`: the delay without one. */
function eventTimeWatermarks(et: EventTimeConfig | undefined, fallback = 0): SourceWatermarkSettings {
  const ooo = et
    ? et.maxOutOfOrderness !== undefined
      ? parseDuration(et.maxOutOfOrderness)
      : EVENT_TIME_DEFAULTS.maxOutOfOrderness
    : fallback;
  const idle = et?.idleTimeout !== undefined ? parseDuration(et.idleTimeout) : EVENT_TIME_DEFAULTS.idleTimeout;
  return { maxOutOfOrderness: ooo, idleTimeout: idle };
}

/** One entry per source type (the runtime's source registry). */
const SOURCES: { [T in NodeType]?: SourceConnector<T> } = {
  [fileSource.type]: {
    reader: (node, ctx, restored, columns) => new FileSourceReader(node.config, ctx, present(restored), columns),
    watermarks: (node) => eventTimeWatermarks(node.config.eventTime),
  },
  [generatorSource.type]: {
    reader: (node, ctx, restored) =>
      new GeneratorSourceReader(generatorParams(node.config), ctx, present(restored), node.config.eventTime?.field),
    // Without eventTime its `ts` is watermarked with its own jitter bound.
    watermarks: (node) =>
      eventTimeWatermarks(node.config.eventTime, maxOutOfOrdernessOf(node.config.outOfOrderness) ?? 0),
  },
  [nexmarkSource.type]: {
    reader: (node, ctx, restored) =>
      new NexmarkSourceReader(
        nexmarkParams(node.config, maxOutOfOrdernessOf(node.config.maxOutOfOrderness)),
        ctx,
        present(restored),
      ),
    watermarks: (node) => ({
      maxOutOfOrderness: maxOutOfOrdernessOf(node.config.maxOutOfOrderness) ?? NEXMARK_DEFAULT_OUT_OF_ORDERNESS_MS,
      idleTimeout: null,
    }),
  },
  [postgresSource.type]: {
    reader: (node, ctx, restored) =>
      node.config.mode === 'cdc'
        ? new PostgresCdcReader(node, ctx, restored)
        : new PostgresSnapshotReader(node.config, ctx, `${node.id}.config`, restored),
    watermarks: (node) => eventTimeWatermarks(node.config.eventTime),
  },
  // Watermarks per partition (the reader's splitWatermark), with these settings.
  [kafkaSource.type]: {
    reader: (node, ctx, restored) =>
      new KafkaSourceReader(node.config, ctx, present(restored), eventTimeWatermarks(node.config.eventTime)),
    watermarks: (node) => eventTimeWatermarks(node.config.eventTime),
  },
};

/** Whether the runtime can read `type` as a source. */
export function hasSourceConnector(type: NodeType): boolean {
  return SOURCES[type] !== undefined;
}

function sourceOf(node: JobNode): SourceConnector<NodeType> {
  const source = SOURCES[node.type];
  if (!source) throw new Error(`node '${node.id}' is not a source`);
  return source;
}

/** `columns`: what the job reads of the source's rows (engine/graph/read-columns.ts); null = all. */
export function createSourceReader(
  node: JobNode,
  ctx: SourceContext,
  restored: unknown[],
  columns: readonly string[] | null = null,
): SourceReader {
  return sourceOf(node).reader(node, ctx, restored, columns);
}

export function sourceWatermarkSettings(node: JobNode): SourceWatermarkSettings {
  return sourceOf(node).watermarks(node);
}
