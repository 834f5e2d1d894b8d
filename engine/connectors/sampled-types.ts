/**
 * The sampled column types of undeclared file sources (Node only), as the validator, the runtime
 * and the Flink SQL export all take them (engine/graph/column-types.ts `sampled`): the same
 * sample (engine/connectors/sample-columns.ts) so every one of them types a column alike. A file is
 * sampled once per process and format (cached by resolved path): every subtask and operator of a
 * run types a column the same way even if the file grows meanwhile.
 */
import { resolve } from 'node:path';
import type { JobNode } from '../graph/types.ts';
import { inferFileColumns } from './sample-columns.ts';
import { fileSource } from '../nodes/source-file/definition.ts';

const samples = new Map<string, Record<string, string> | undefined>();

/** name -> Flink SQL type of `node`'s sampled columns; undefined for other nodes or no data. */
export function fileSampler(baseDir: string | undefined): (node: JobNode) => Record<string, string> | undefined {
  return (node) => {
    if (node.type !== fileSource.type || node.config.columns || typeof node.config.path !== 'string') return undefined;
    const key = `${node.config.format}\0${resolve(baseDir ?? '.', node.config.path)}`;
    if (!samples.has(key)) {
      const r = inferFileColumns(node.config, baseDir);
      samples.set(key, r.ok ? Object.fromEntries(r.columns.map((c) => [c.name, c.type])) : undefined);
    }
    return samples.get(key);
  };
}
