/**
 * Where the CLI writes. Diagnostics (errors, usage after a mistake) go to stderr so that
 * stdout carries only results (a summary, an exported document). Injectable for tests.
 */

import { formatProblem } from '../graph/summary.ts';
import type { JobProblem } from '../graph/types.ts';

export interface CliIO {
  out(text: string): void;
  err(text: string): void;
}

export const processIO: CliIO = {
  out: (text) => {
    process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  },
  err: (text) => {
    process.stderr.write(text.endsWith('\n') ? text : `${text}\n`);
  },
};

/** Exit codes: 0 success, 1 failure while working, 2 invalid input or usage. */
export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_INVALID = 2;

export function printProblems(io: CliIO, problems: readonly JobProblem[]): void {
  for (const p of problems) io.err(formatProblem(p));
}
