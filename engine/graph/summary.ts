/** One-line descriptions of a valid job, for the CLI and the host's validate call. Browser-safe. */

import type { JobProblem, NormalizedJob } from './types.ts';
import { formatDuration } from './units.ts';

/** `orders-per-user: valid (4 nodes, 3 edges, backend fs, checkpoints every 1s)` */
export function summarizeJob(job: NormalizedJob, problems: readonly JobProblem[] = []): string {
  const cp = job.settings.checkpointing.interval;
  const parts = [
    `${job.nodes.length} node${job.nodes.length === 1 ? '' : 's'}`,
    `${job.edges.length} edge${job.edges.length === 1 ? '' : 's'}`,
    `backend ${job.settings.stateBackend}`,
    cp === null ? 'checkpoints off' : `checkpoints every ${formatDuration(cp)}`,
  ];
  const warnings = problems.filter((p) => p.severity === 'warning').length;
  if (warnings > 0) parts.push(`${warnings} warning${warnings === 1 ? '' : 's'}`);
  return `${job.name}: valid (${parts.join(', ')})`;
}

/** `PATH: message` lines, warnings marked. */
export function formatProblem(p: JobProblem): string {
  return `${p.path}: ${p.severity === 'warning' ? 'warning: ' : ''}${p.message}`;
}
