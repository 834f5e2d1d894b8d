/**
 * The `weir` command line (bin/weir.mjs calls `main`). Subcommands live in their own modules.
 * Bad input never produces a stack trace: usage mistakes exit 2 with a message,
 * unexpected failures exit 1 with one line (set WEIR_DEBUG=1 for the stack).
 */

import { EXIT_FAILURE, EXIT_INVALID, EXIT_OK, processIO, type CliIO } from './output.ts';
import { validateCommand } from './validate-command.ts';
import { exportCommand } from './export-command.ts';
import { runCommand } from './run.ts';
import { serveCommand } from './serve.ts';
import { importCommand } from './import-command.ts';
import { version } from './version.ts';
import { nexmarkCommand } from './nexmark-command.ts';
import { flinkCommand } from './flink-command.ts';

export const USAGE = `Usage: weir <command> [options]

Commands:
  validate JOB.json           check a job file; prints problems as PATH: message (exit 2 if any)
  export JOB.json             print the job with defaults filled in
      --format json|flink-sql [--flink-version 1.19|1.20|2.x] [--path-prefix URI] [-o FILE]
  import SCRIPT.sql           a Flink SQL script as a weir.job/v1 job (weir import --help)
  run JOB.json [options]      run a job locally (weir run --help)
  serve [options]             serve the designer and the engine over HTTP/WebSocket (weir serve --help)
  nexmark generate [options]  write the Nexmark events of a seed as JSON Lines files (weir nexmark --help)
  flink run JOB.json|SQL      run a job or script on Apache Flink (local MiniCluster; weir flink --help)

Options:
  -h, --help                  show this help (or a command's help: weir <command> --help)
  -v, --version               print the version

Exit codes: 0 success, 1 failure while running, 2 invalid job or usage.`;

function isParseArgsError(e: unknown): e is Error {
  const code = (e as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_');
}

export async function main(argv: string[], io: CliIO = processIO): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case undefined:
        io.err(USAGE);
        return EXIT_INVALID;
      case '-h':
      case '--help':
      case 'help':
        io.out(USAGE);
        return EXIT_OK;
      case '-v':
      case '--version':
      case 'version':
        io.out(`weir ${version()}`);
        return EXIT_OK;
      case 'validate':
        return await validateCommand(rest, io);
      case 'export':
        return await exportCommand(rest, io);
      case 'import':
        return await importCommand(rest, io);
      case 'run':
        return await runCommand(rest, io);
      case 'serve':
        return await serveCommand(rest, io);
      case 'nexmark':
        return await nexmarkCommand(rest, io);
      case 'flink':
        return await flinkCommand(rest, io);
      default:
        io.err(`weir: unknown command '${command}'`);
        io.err(USAGE);
        return EXIT_INVALID;
    }
  } catch (e) {
    if (isParseArgsError(e)) {
      io.err(`weir ${command}: ${e.message}`);
      io.err(`Run 'weir ${command} --help' for usage.`);
      return EXIT_INVALID;
    }
    const err = e as Error;
    io.err(`weir ${command}: internal error: ${err?.message ?? String(e)}`);
    if (process.env.WEIR_DEBUG === '1' && err?.stack) io.err(err.stack);
    return EXIT_FAILURE;
  }
}
