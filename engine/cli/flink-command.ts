/**
 * `weir flink run JOB.weir.json | SCRIPT.sql [--flink-version 1.20|2.x] [--parallelism N]`: runs a
 * job on a real Apache Flink, a local MiniCluster started by Weir's Flink runner (a JVM, see
 * flink-runner-process.ts), or with `--gateway URL` on a running Flink SQL Gateway
 * (flink-gateway-run.ts). A job file is exported first with Weir's own exporter
 * (engine/export/flink-sql, as `weir export --format flink-sql`), so its sinks write where the
 * script says (by default the job's own output folders, as `weir run`). Progress on stderr; exit 0
 * when every job of the script finished, 1 with Flink's error in one line otherwise, 2 on bad input.
 * `weir flink stop JOBID --savepoint DIR --gateway URL` stops a job with a savepoint.
 */
import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { writeJobScript, type JobScript } from '../flink/job-script.ts';
import { loadJob } from './load-job.ts';
import { EXIT_FAILURE, EXIT_INVALID, EXIT_OK, printProblems, type CliIO } from './output.ts';
import { FlinkProgressPrinter } from './flink-progress.ts';
import { FLINK_LINES, runnerAvailability, startFlinkRunner, type FlinkLine } from '../flink/runner-process.ts';
import { runOnGateway, stopOnGateway } from './flink-gateway-run.ts';

export const FLINK_USAGE = `Usage: weir flink run JOB.weir.json | SCRIPT.sql [options]
       weir flink stop JOBID --savepoint DIR --gateway URL

Runs the job on Apache Flink: a local MiniCluster in a JVM (Java 17+; build the runner once with
npm run flink:build), or a running Flink SQL Gateway. A job file is exported to Flink SQL first
(weir export --format flink-sql).

Options:
  --flink-version V   1.20 (default) or 2.x: the Flink the job runs on (and the export targets)
  --parallelism N     parallelism.default for this run (wins over the script's SET)
  --path-prefix URI   job files: data and checkpoint paths under this URI (as weir export)
  --gateway URL       submit to this Flink SQL Gateway (REST, e.g. http://localhost:8083) instead
  --detach            with --gateway: print the job id and return while the job runs
  --savepoint DIR     weir flink stop: where the savepoint goes
  --quiet             no progress output
  -h, --help          show this help

Exit 0 when every job finished (or was submitted, with --detach), 1 with Flink's error in one line.`;

export async function flinkCommand(argv: string[], io: CliIO): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === '-h' || sub === '--help' || sub === 'help') {
    (sub === undefined ? io.err : io.out)(FLINK_USAGE);
    return sub === undefined ? EXIT_INVALID : EXIT_OK;
  }
  if (sub !== 'run' && sub !== 'stop') {
    io.err(`weir flink: unknown subcommand '${sub}' (allowed: run, stop)`);
    io.err(FLINK_USAGE);
    return EXIT_INVALID;
  }
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    strict: true,
    options: {
      'flink-version': { type: 'string', default: '1.20' },
      parallelism: { type: 'string' },
      'path-prefix': { type: 'string' },
      gateway: { type: 'string' },
      detach: { type: 'boolean' },
      savepoint: { type: 'string' },
      quiet: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    io.out(FLINK_USAGE);
    return EXIT_OK;
  }
  if (values.gateway !== undefined && !/^https?:\/\/[^/]/i.test(values.gateway)) {
    io.err(`weir flink ${sub}: --gateway '${values.gateway}' is not an http(s) URL such as http://localhost:8083`);
    return EXIT_INVALID;
  }
  if (sub === 'stop') {
    if (positionals.length !== 1 || !values.savepoint || !values.gateway) {
      io.err(`weir flink stop: expected JOBID --savepoint DIR --gateway URL\n\n${FLINK_USAGE}`);
      return EXIT_INVALID;
    }
    return await stopOnGateway(values.gateway, positionals[0], values.savepoint, io);
  }
  if (positionals.length !== 1) {
    io.err(`weir flink run: expected one JOB.weir.json or SCRIPT.sql\n\n${FLINK_USAGE}`);
    return EXIT_INVALID;
  }
  if (values.detach && !values.gateway) {
    io.err('weir flink run: --detach applies with --gateway only (a local MiniCluster ends with weir)');
    return EXIT_INVALID;
  }
  const line = values['flink-version'] as FlinkLine;
  if (!FLINK_LINES.includes(line)) {
    io.err(`weir flink run: unknown --flink-version '${line}' (allowed: ${FLINK_LINES.join(', ')})`);
    return EXIT_INVALID;
  }
  const settings: Record<string, string> = {};
  if (values.parallelism !== undefined) {
    const p = Number(values.parallelism);
    if (!Number.isInteger(p) || p < 1 || p > 64) {
      io.err(`weir flink run: --parallelism must be an integer from 1 to 64, got '${values.parallelism}'`);
      return EXIT_INVALID;
    }
    settings['parallelism.default'] = String(p);
  }
  const input = positionals[0];
  const isScript = input.toLowerCase().endsWith('.sql');
  if (isScript && !existsSync(input)) {
    io.err(`weir flink run: cannot read ${input}: no such file`);
    return EXIT_INVALID;
  }
  if (isScript && values['path-prefix'] !== undefined) {
    io.err('weir flink run: --path-prefix applies to job files only (a script names its own paths)');
    return EXIT_INVALID;
  }

  const available = values.gateway === undefined ? runnerAvailability(line) : null;
  if (available && !available.ok) {
    io.err(`weir flink run: ${available.reason}`);
    return EXIT_FAILURE;
  }

  let exported: JobScript | undefined;
  try {
    let script = input;
    if (!isScript) {
      const loaded = await loadJob(input);
      if (!loaded.ok) {
        printProblems(io, loaded.problems);
        return EXIT_INVALID;
      }
      exported = writeJobScript(loaded.job, {
        line,
        ...(values['path-prefix'] !== undefined ? { pathPrefix: values['path-prefix'] } : {}),
      });
      printProblems(io, exported.warnings);
      script = exported.file;
    }
    if (available === null) {
      const text = readFileSync(script, 'utf8');
      const opts = { script: text, settings, detach: !!values.detach, quiet: !!values.quiet };
      return await runOnGateway({ ...opts, gateway: values.gateway! }, io);
    }
    const progress = new FlinkProgressPrinter(io, !!values.quiet);
    const handle = startFlinkRunner(
      { line, scripts: [script], settings, onEvent: (e) => progress.onEvent(e) },
      available.classpath,
    );
    const onSignal = () => handle.stop();
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    try {
      const r = await handle.result;
      if (!r.ok) {
        io.err(`weir flink run: ${(r.error ?? 'failed').replace(/\s*\n\s*/g, ' | ')}`);
        return EXIT_FAILURE;
      }
      const jobs = r.events.filter((e) => e.event === 'finished').length;
      if (!values.quiet)
        io.err(`weir flink run: ${jobs === 0 ? 'the script submitted no job' : `${jobs} job(s) finished`}`);
      return EXIT_OK;
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
  } finally {
    exported?.dispose();
  }
}
