/**
 * The `weir` command line (bin/weir.mjs calls `main`). Subcommands live in their own modules,
 * imported only when that command runs: `weir --version` must not load SQL parsers, pg or ELK.
 * Bad input never produces a stack trace: usage mistakes exit 2 with a message,
 * unexpected failures exit 1 with one line (set WEIR_DEBUG=1 for the stack).
 */

import { EXIT_FAILURE, EXIT_INVALID, EXIT_OK, processIO, type CliIO } from './output.ts';
import { version } from './version.ts';

type Command = (argv: string[], io: CliIO) => Promise<number>;

/** Each command's module, loaded on use (one line per command). */
const COMMANDS: Record<string, () => Promise<Command>> = {
  validate: async () => (await import('./validate-command.ts')).validateCommand,
  export: async () => (await import('./export-command.ts')).exportCommand,
  import: async () => (await import('./import-command.ts')).importCommand,
  run: async () => (await import('./run.ts')).runCommand,
  preview: async () => (await import('./preview-command.ts')).previewCommand,
  serve: async () => (await import('./serve.ts')).serveCommand,
  nexmark: async () => (await import('./nexmark-command.ts')).nexmarkCommand,
  flink: async () => (await import('./flink-command.ts')).flinkCommand,
};

export const USAGE = `Usage: weir <command> [options]

Commands:
  validate JOB.json           check a job file; prints problems as PATH: message (exit 2 if any)
  export JOB.json             print the job with defaults filled in
      --format json|flink-sql [--flink-version 1.19|1.20|2.x] [--path-prefix URI] [-o FILE]
  import SCRIPT.sql           a Flink SQL script as a weir.job/v1 job (weir import --help)
  run JOB.json [options]      run a job locally (weir run --help)
  preview JOB.json            each node's output over a sample of the input, sinks off (weir preview --help)
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
      default: {
        const load = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
        if (load) return await (await load())(rest, io);
        io.err(`weir: unknown command '${command}'`);
        io.err(USAGE);
        return EXIT_INVALID;
      }
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
