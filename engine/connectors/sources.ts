/** Source node -> reader, and its event-time settings (defaults: generator's `ts`, no idleness). */
import type { JobNode } from '../graph/types.ts';
import { parseDuration } from '../graph/units.ts';
import type { SourceContext, SourceReader } from '../contracts/source.ts';
import { FileSourceReader } from './file-source.ts';
import { GeneratorSourceReader, generatorParams } from './generator-source.ts';

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
  throw new Error(`node '${node.id}' is not a source`);
}

export interface SourceWatermarkSettings {
  maxOutOfOrderness: number;
  idleTimeout: number | null;
}

export function sourceWatermarkSettings(node: JobNode): SourceWatermarkSettings {
  if (node.type !== 'source.file' && node.type !== 'source.generator')
    throw new Error(`node '${node.id}' is not a source`);
  const et = node.config.eventTime;
  let ooo = et?.maxOutOfOrderness !== undefined ? parseDuration(et.maxOutOfOrderness) : 0;
  if (!et && node.type === 'source.generator') {
    ooo = node.config.outOfOrderness !== undefined ? parseDuration(node.config.outOfOrderness) : 0;
  }
  return { maxOutOfOrderness: ooo, idleTimeout: et?.idleTimeout !== undefined ? parseDuration(et.idleTimeout) : null };
}
