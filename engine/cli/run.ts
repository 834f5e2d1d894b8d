/**
 * `weir run JOB.json [--resume] [--from PATH] [--allow-non-restored-state] [--parallelism N] [--quiet]`: runs a job in a task
 * process and shows progress on stderr (one updating line on a terminal, plain lines otherwise).
 * Exit 0 when the job finished (or was stopped with a savepoint), 1 when it failed, 2 on bad input.
 * SIGINT/SIGTERM stop the job with a savepoint and print its path; a second signal cancels at once.
 */
import { parseArgs } from 'node:util';
import { loadJob } from './load-job.ts';
import { EXIT_FAILURE, EXIT_INVALID, EXIT_OK, printProblems, processIO, type CliIO } from './output.ts';
import { startJob } from '../runtime/job/job-runner.ts';
import type { JobFaults, JobHandle, RunEvent } from '../runtime/job/api.ts';
import { ProgressPrinter } from './run-progress.ts';

export const RUN_USAGE = `Usage: weir run JOB.json [options]

Options:
  --resume          continue from the latest retained checkpoint (fs and rocksdb state backends)
  --from PATH       restore a checkpoint or savepoint folder
  --allow-non-restored-state
                    a restore drops the state of nodes the job no longer has (else it is refused)
  --clear-output    a fresh run first deletes the output earlier runs of this job committed to its
                    sink folders (only files their manifest lists; refused if others are there)
  --parallelism N   the job's default parallelism for this run (nodes with their own keep it)
  --quiet           no progress output
  -h, --help        show this help

Ctrl-C stops the job with a savepoint and prints its path.`;

/** `faults`: crash tests start the CLI through test/support/weir-with-faults.ts with these (api.ts). */
export async function runCommand(argv: string[], io: CliIO = processIO, faults?: JobFaults): Promise<number> {
  let args;
  try {
    args = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        resume: { type: 'boolean' },
        from: { type: 'string' },
        parallelism: { type: 'string' },
        'clear-output': { type: 'boolean' },
        'allow-non-restored-state': { type: 'boolean' },
        quiet: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (e) {
    io.err(`weir run: ${(e as Error).message}\n\n${RUN_USAGE}`);
    return EXIT_INVALID;
  }
  if (args.values.help) {
    io.out(RUN_USAGE);
    return EXIT_OK;
  }
  if (args.positionals.length !== 1) {
    io.err(`weir run: expected one job file\n\n${RUN_USAGE}`);
    return EXIT_INVALID;
  }
  if (args.values.resume && args.values.from) {
    io.err('weir run: use either --resume or --from, not both');
    return EXIT_INVALID;
  }
  if (args.values['clear-output'] && (args.values.resume || args.values.from)) {
    io.err('weir run: --clear-output is for a fresh run; a restore rolls its sinks back by itself');
    return EXIT_INVALID;
  }
  let parallelism: number | undefined;
  if (args.values.parallelism !== undefined) {
    parallelism = Number(args.values.parallelism);
    if (!Number.isInteger(parallelism) || parallelism < 1) {
      io.err(`weir run: --parallelism must be a positive integer, got '${args.values.parallelism}'`);
      return EXIT_INVALID;
    }
  }
  const loaded = await loadJob(args.positionals[0], { parallelism }, { checkSinkTables: true });
  if (!loaded.ok) {
    printProblems(io, loaded.problems);
    return EXIT_INVALID;
  }
  const job = loaded.job;

  const quiet = !!args.values.quiet;
  // validate prints these too: a run that starts anyway should not hide why its results may surprise.
  if (!quiet)
    printProblems(
      io,
      loaded.problems.filter((p) => p.severity === 'warning'),
    );
  const progress = new ProgressPrinter(job, io, { quiet, tty: !!process.stderr.isTTY });
  let handle: JobHandle;
  try {
    handle = await startJob({
      job,
      resume: !!args.values.resume,
      from: args.values.from,
      clearOutput: !!args.values['clear-output'],
      allowNonRestoredState: !!args.values['allow-non-restored-state'],
      onEvent: (e: RunEvent) => progress.onEvent(e),
      faults,
    });
  } catch (e) {
    io.err(`weir run: ${(e as Error).message}`);
    return EXIT_FAILURE;
  }

  let signals = 0;
  const onSignal = (sig: NodeJS.Signals) => {
    signals++;
    if (signals === 1) {
      progress.note(`${sig}: stopping with a savepoint (press Ctrl-C again to cancel without one)`);
      handle.stop({ savepoint: true }).catch((e) => {
        progress.note(`savepoint failed: ${(e as Error).message}; stopping without one`);
        void handle.stop({ savepoint: false });
      });
    } else {
      progress.note('canceling');
      handle.killTaskProcess();
      process.exit(130);
    }
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const r = await handle.done;
    progress.end();
    if (r.status === 'finished') {
      const allBad = progress.allBadSources();
      if (allBad.length > 0) {
        io.err(
          `weir run: job '${job.name}' finished, but every record of ${allBad.map((b) => `source '${b.nodeId}' (${b.bad} bad)`).join(', ')} ` +
            `was bad, so its output is empty; check the input format and eventTime settings`,
        );
        return EXIT_FAILURE;
      }
      if (!quiet) io.err(`weir run: job '${job.name}' finished${r.restarts ? ` after ${r.restarts} restart(s)` : ''}`);
      return EXIT_OK;
    }
    if (r.status === 'stopped') {
      if (r.savepoint) {
        io.err(`weir run: stopped; savepoint: ${r.savepoint}`);
        io.out(r.savepoint); // the result, for scripts: weir run JOB --from "$(...)"
      } else io.err('weir run: stopped');
      return EXIT_OK;
    }
    io.err(`weir run: job '${job.name}' ${r.status}: ${r.cause ?? 'unknown cause'}`);
    return EXIT_FAILURE;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
