/**
 * The columns a `sink.postgres` node receives, as far as the job tells them before any data is
 * read (null when an input's columns are only known from its data, e.g. a file source without
 * declared `columns`), with their static types.
 */
import type { JobDocument, NormalizedJob } from '../../graph/types.ts';
import { nodeColumns } from '../../graph/node-columns.ts';
import { DEAD_LETTER_COLUMNS } from '../../graph/check-columns.ts';
import { inputColumnTypes, type ColumnTypeMap } from '../../graph/column-types.ts';

export function sinkInputColumns(job: NormalizedJob, nodeId: string): string[] | null {
  const doc: JobDocument = { format: job.format, name: job.name, nodes: job.nodes, edges: job.edges };
  const out = nodeColumns(doc);
  const names = new Set<string>();
  for (const e of job.edges) {
    if (e.to !== nodeId) continue;
    const cols = e.fromPort === 'bad' ? DEAD_LETTER_COLUMNS : out.get(e.from)?.[e.fromPort === 'late' ? 'late' : 'out'];
    if (!cols || cols.includes('*')) return null;
    for (const c of cols) names.add(c);
  }
  return [...names];
}

export function sinkInputTypes(job: NormalizedJob, nodeId: string): ColumnTypeMap {
  return inputColumnTypes(job, nodeId);
}
