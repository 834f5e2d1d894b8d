/**
 * The one place the designer reaches the job validator: the very `validateJob` that
 * `weir validate` runs (so the canvas shows exactly the problems the CLI prints), with the
 * expression checks memoized (see expressionCache.ts) so that validating on every edit stays fast,
 * and the columns sampled from sources' data.
 */
import type { JobNode, JobProblem } from '../../../engine/graph/types.ts';
import { validateJob as validateWithEngine } from '../../../engine/graph/validate.ts';
import { cachedExpressions, validationCache } from './expressionCache.ts';
import { sampledColumns } from './sampledColumns.ts';

/**
 * `docPath`: the document's path. An undeclared file source's columns sampled from its data
 * (sampledColumns.ts) are known to the validator as they are to `weir validate`, which reads the
 * file: a misspelled column downstream is an error at once, with the nearest names.
 */
export function validateJob(job: unknown, docPath: string | null = null): JobProblem[] {
  return validateWithEngine(job, {
    expressions: cachedExpressions,
    cache: validationCache,
    // Until a source's sample has answered, the designer knows no more than the bare validator
    // (no "columns unknown" warning flashing while the sample is on its way).
    ...(hasSamples(job, docPath) ? { sampled: (node: JobNode) => sampledTypes(node, docPath) } : {}),
  }).problems;
}

function sampledTypes(node: JobNode, docPath: string | null): Record<string, string> | undefined {
  const s = sampledColumns(node, docPath);
  return s && s.columns.length > 0 ? Object.fromEntries(s.columns.map((c) => [c.name, c.type])) : undefined;
}

function hasSamples(job: unknown, docPath: string | null): boolean {
  const nodes = (job as { nodes?: unknown } | null)?.nodes;
  return Array.isArray(nodes) && nodes.some((n) => n && typeof n === 'object' && sampledColumns(n as JobNode, docPath));
}
