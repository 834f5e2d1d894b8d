/** `weir validate JOB.json...`: problems as `PATH: message`, exit 2 on any error. */

import { parseArgs } from 'node:util';
import { loadJob } from './load-job.ts';
import { summarizeJob } from '../graph/summary.ts';
import { EXIT_INVALID, EXIT_OK, printProblems, type CliIO } from './output.ts';

export const VALIDATE_USAGE = `Usage: weir validate JOB.json [JOB.json...] [--json]

Checks job files against the weir.job/v1 format: structure, connections, event time,
expressions and columns. Prints every problem as PATH: message and exits 2 when there is
any error; prints a one-line summary per valid job and exits 0 otherwise.

  --json   print one JSON object per file: { file, ok, summary?, problems }`;

export async function validateCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) {
    io.out(VALIDATE_USAGE);
    return EXIT_OK;
  }
  if (positionals.length === 0) {
    io.err('weir validate: missing JOB.json');
    io.err(VALIDATE_USAGE);
    return EXIT_INVALID;
  }
  let code = EXIT_OK;
  for (const file of positionals) {
    const r = await loadJob(file, {}, { checkSinkTables: true });
    if (values.json) {
      io.out(
        JSON.stringify({
          file,
          ok: r.ok,
          ...(r.ok ? { summary: summarizeJob(r.job, r.problems) } : {}),
          problems: r.problems,
        }),
      );
    } else {
      // The problems are validate's result, so they go to stdout (as eslint/tsc do); other commands
      // print problems to stderr because their stdout carries a document.
      printProblems({ out: io.out, err: io.out }, r.problems);
      if (r.ok) io.out(summarizeJob(r.job, r.problems));
    }
    if (!r.ok) code = EXIT_INVALID;
  }
  return code;
}
