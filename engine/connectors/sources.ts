/** Source node -> reader, and its event-time settings (defaults: generator's `ts`, no idleness). */
import type { JobNode } from '../graph/types.ts';
import { parseDuration } from '../graph/units.ts';
import { NEXMARK_DEFAULT_OUT_OF_ORDERNESS_MS } from '../graph/nexmark.ts';
import type { SourceContext, SourceReader } from '../contracts/source.ts';
import { FileSourceReader } from './file-source.ts';
import { GeneratorSourceReader, generatorParams } from './generator-source.ts';
import { NexmarkSourceReader } from './nexmark/nexmark-source.ts';
import { nexmarkParams } from './nexmark/nexmark-generator.ts';
import { PostgresSnapshotReader } from './postgres/snapshot-source.ts';
import { PostgresCdcReader } from './postgres/cdc-source.ts';

/** `columns`: what the job reads of the source's rows (engine/graph/read-columns.ts); null = all. */
export function createSourceReader(
  node: JobNode,
  ctx: SourceContext,
  restored: unknown[],
  columns: readonly string[] | null = null,
): SourceReader {
  if (node.type === 'source.file')
    return new FileSourceReader(
      node.config,
      ctx,
      restored.filter((r) => r !== undefined),
      columns,
    );
  if (node.type === 'source.generator')
    return new GeneratorSourceReader(
      generatorParams(node.config),
      ctx,
      restored.filter((r) => r !== undefined),
      node.config.eventTime?.field,
    );
  if (node.type === 'source.nexmark')
    return new NexmarkSourceReader(
      nexmarkParams(node.config, maxOutOfOrdernessOf(node.config.maxOutOfOrderness)),
      ctx,
      restored.filter((r) => r !== undefined),
    );
  if (node.type === 'source.postgres')
    return node.config.mode === 'cdc'
      ? new PostgresCdcReader(node, ctx, restored)
      : new PostgresSnapshotReader(node.config, ctx, `${node.id}.config`, restored);
  throw new Error(`node '${node.id}' is not a source`);
}

function maxOutOfOrdernessOf(d: string | number | undefined): number | undefined {
  return d === undefined ? undefined : parseDuration(d);
}

export interface SourceWatermarkSettings {
  maxOutOfOrderness: number;
  idleTimeout: number | null;
}

export function sourceWatermarkSettings(node: JobNode): SourceWatermarkSettings {
  if (node.type === 'source.nexmark')
    return {
      maxOutOfOrderness: maxOutOfOrdernessOf(node.config.maxOutOfOrderness) ?? NEXMARK_DEFAULT_OUT_OF_ORDERNESS_MS,
      idleTimeout: null,
    };
  if (node.type !== 'source.file' && node.type !== 'source.generator' && node.type !== 'source.postgres')
    throw new Error(`node '${node.id}' is not a source`);
  const et = node.config.eventTime;
  let ooo = et?.maxOutOfOrderness !== undefined ? parseDuration(et.maxOutOfOrderness) : 0;
  if (!et && node.type === 'source.generator') {
    ooo = node.config.outOfOrderness !== undefined ? parseDuration(node.config.outOfOrderness) : 0;
  }
  return { maxOutOfOrderness: ooo, idleTimeout: et?.idleTimeout !== undefined ? parseDuration(et.idleTimeout) : null };
}
