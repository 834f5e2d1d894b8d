/**
 * A file source whose data file does not exist is an error on its node, at its path field: the
 * designer learns it from the source's sample (sampledColumns.ts: `missing`), since the validator
 * never touches files. Plain TS.
 */
import type { JobNode, JobProblem } from '../../../engine/graph/types.ts';
import { sampleKey, type Sampled } from './sampledColumns.ts';

/** Per node id: the problem of its missing input, for nodes whose current sample says so. */
export function missingInputProblems(
  nodes: readonly JobNode[],
  samples: ReadonlyMap<string, Sampled>,
  docPath: string | null,
): ReadonlyMap<string, JobProblem> {
  const out = new Map<string, JobProblem>();
  nodes.forEach((n, i) => {
    const s = samples.get(n?.id);
    if (!s?.missing || s.key !== sampleKey(n, docPath)) return;
    out.set(n.id, {
      path: `nodes[${i}].config.path`,
      nodeId: n.id,
      severity: 'error',
      message: s.message ?? 'no such file',
    });
  });
  return out;
}

/** A node's problems with its missing input first; the same array when there is none. */
export function withMissingInput(
  problems: JobProblem[] | undefined,
  missing: JobProblem | undefined,
): JobProblem[] | undefined {
  return missing ? [missing, ...(problems ?? [])] : problems;
}
