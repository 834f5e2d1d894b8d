/**
 * Validation as the host's calls need it: a job that does not validate leaves as one `invalid_job`
 * HostError carrying every problem, its message the count and the first error.
 */
import type { JobProblem, NormalizedJob } from '../../graph/types.ts';
import { validateJob, type ValidateOptions } from '../../graph/validate.ts';
import { HostError } from '../common/errors.ts';

/** `3 problem(s); first: nodes[2].config.where: ...`, or 'no problems'. */
export function summarizeProblems(problems: Array<{ path: string; message: string; severity?: string }>): string {
  const errors = problems.filter((p) => p.severity !== 'warning');
  const first = errors[0] ?? problems[0];
  return first ? `${errors.length} problem(s); first: ${first.path}: ${first.message}` : 'no problems';
}

/** The normalized job and its warnings, or a thrown `invalid_job` naming the job. */
export function validatedJob(input: unknown, options: ValidateOptions): { job: NormalizedJob; problems: JobProblem[] } {
  const v = validateJob(input, options);
  if (!v.ok) {
    const name = typeof (input as { name?: unknown })?.name === 'string' ? (input as { name: string }).name : 'job';
    throw new HostError('invalid_job', `${name}: ${summarizeProblems(v.problems)}`, v.problems);
  }
  return { job: v.job, problems: v.problems };
}
