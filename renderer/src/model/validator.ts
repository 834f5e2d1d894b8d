/**
 * The one place the designer reaches the job validator: the very `validateJob` that
 * `weir validate` runs, so the canvas shows exactly the problems the CLI would print.
 */
import type { JobProblem } from '../../../engine/graph/types.ts';
import { validateJob as validateWithEngine } from '../../../engine/graph/validate.ts';

export function validateJob(job: unknown): JobProblem[] {
  return validateWithEngine(job).problems;
}
