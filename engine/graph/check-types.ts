/**
 * Type rules of the validator that are not expressions: what an event-time column may hold, and
 * the warning for a source whose columns nothing tells before the run. Browser-safe.
 */
import type { JobNode, JobProblem } from './types.ts';
import type { ColumnTypeMap } from '../nodes/column-types.ts';

/**
 * An event-time column holds epoch milliseconds (BIGINT) or a timestamp (TIMESTAMP, or an
 * ISO-8601 STRING, which is how rows carry timestamps); null when `field`'s type allows it or is
 * unknown, else the problem.
 */
export function checkEventTimeType(field: string, types: ColumnTypeMap): string | null {
  const t = types.get(field)?.type;
  if (t === undefined || t === 'UNKNOWN' || t === 'BIGINT' || t === 'STRING' || t === 'TIMESTAMP') return null;
  const flink = t === 'DECIMAL' ? 'DECIMAL' : t;
  return `event-time column '${field}' is ${flink}: it must hold epoch milliseconds (BIGINT) or a timestamp (TIMESTAMP(3) or an ISO-8601 STRING)`;
}

/**
 * A source whose columns are neither declared nor sampled (its file does not exist yet): nothing
 * downstream can be checked now, so the run checks them when it starts (it samples the file then).
 */
export function untypedSourceWarning(node: JobNode, index: number): JobProblem {
  return {
    path: `nodes[${index}].config.columns`,
    severity: 'warning',
    nodeId: node.id,
    message: `the columns of '${node.id}' are unknown (no declared columns and no data to sample): column names and types downstream are checked only when the run starts; declare them to check them now`,
  };
}
