/**
 * The column types an operator's expressions are compiled with: declared and computed types
 * (engine/graph/column-types.ts) and, for a file source without declared columns, the types a
 * sample of its data gives, the same sample the validator and the Flink SQL export use
 * (engine/connectors/sampled-types.ts, cached per process).
 */
import { columnTyper, type ColumnTypeMap, type ColumnTyper } from '../../graph/column-types.ts';
import type { NormalizedJob } from '../../graph/types.ts';
import { fileSampler } from '../../connectors/sampled-types.ts';

/** One typer per job: each node's output is typed once for all the operators of a task process. */
const typers = new WeakMap<NormalizedJob, ColumnTyper>();

export function operatorInputTypes(job: NormalizedJob, nodeId: string): ColumnTypeMap {
  let typer = typers.get(job);
  if (!typer) {
    typer = columnTyper(job, { sampled: fileSampler(job.baseDir) });
    typers.set(job, typer);
  }
  return typer.inputOf(nodeId);
}
