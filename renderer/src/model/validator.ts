/**
 * The one place the designer reaches the job validator: the very `validateJob` that
 * `weir validate` runs (so the canvas shows exactly the problems the CLI prints), with the
 * expression checks memoized (see expressionCache.ts) so that validating on every edit stays fast.
 */
import type { JobProblem } from '../../../engine/graph/types.ts';
import { validateJob as validateWithEngine } from '../../../engine/graph/validate.ts';
import { cachedExpressions } from './expressionCache.ts';

export function validateJob(job: unknown): JobProblem[] {
  return validateWithEngine(job, { expressions: cachedExpressions }).problems;
}
