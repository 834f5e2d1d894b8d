/**
 * The column types an operator's expressions are compiled with: declared and computed types
 * (engine/graph/column-types.ts) and, for a file source without declared columns, the types a
 * sample of its data gives, the same sample the Flink SQL export declares in its CREATE TABLE.
 * A file is sampled once per task process (the result is cached by path), so every subtask and
 * every operator of a run types a column alike.
 */
import { resolve } from 'node:path';
import { columnTyper, type ColumnTypeMap, type ColumnTyper } from '../../graph/column-types.ts';
import type { NormalizedJob } from '../../graph/types.ts';
import { inferFileColumns } from '../../connectors/sample-columns.ts';
import { fileSource } from '../../nodes/source-file/definition.ts';

const samples = new Map<string, Record<string, string> | undefined>();

/** One typer per job: each node's output is typed once for all the operators of a task process. */
const typers = new WeakMap<NormalizedJob, ColumnTyper>();

export function operatorInputTypes(job: NormalizedJob, nodeId: string): ColumnTypeMap {
  let typer = typers.get(job);
  if (!typer) {
    typer = columnTyper(job, { sampled: (node) => sampledTypes(job, node) });
    typers.set(job, typer);
  }
  return typer.inputOf(nodeId);
}

function sampledTypes(job: NormalizedJob, node: NormalizedJob['nodes'][number]): Record<string, string> | undefined {
  if (node.type !== fileSource.type) return undefined;
  const key = `${node.config.format}\0${resolve(job.baseDir ?? '.', node.config.path)}`;
  if (!samples.has(key)) {
    const r = inferFileColumns(node.config, job.baseDir);
    samples.set(key, r.ok ? Object.fromEntries(r.columns.map((c) => [c.name, c.type])) : undefined);
  }
  return samples.get(key);
}
