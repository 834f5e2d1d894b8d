/**
 * The one place the designer reaches the job validator. It must be the validator `weir validate`
 * uses, so the canvas shows exactly the problems the CLI would print.
 */
import type { JobProblem } from '../../../engine/graph/types.ts';
import { jobDocumentSchema } from '../../../engine/graph/schema.ts';
import { problemsFromIssues } from '../../../engine/graph/schema-problems.ts';

// Until engine/graph/validate.ts lands this checks the structure through the shared schema only.
export function validateJob(job: unknown): JobProblem[] {
  const r = jobDocumentSchema.safeParse(job);
  return r.success ? [] : problemsFromIssues(r.error.issues, job);
}
