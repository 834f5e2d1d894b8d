/**
 * The `weir` command line (bin/weir.mjs calls `main`). Subcommands live in their own modules;
 * `run` and `serve` are loaded only when used, so `weir validate` starts fast and does not load
 * the runtime. Bad input never produces a stack trace: usage mistakes exit 2 with a message,
 * unexpected failures exit 1 with one line (set WEIR_DEBUG=1 for the stack).
 */

import { readFileSync } from 'node:fs';
import { EXIT_FAILURE, EXIT_INVALID, EXIT_OK, processIO, type CliIO } from './output.ts';
import { validateCommand } from './validate-command.ts';
import { exportCommand } from './export-command.ts';

export const USAGE = `Usage: weir <command> [options]

Commands:
  validate JOB.json           check a job file; prints problems as PATH: message (exit 2 if any)
  export JOB.json             print the job with defaults filled in
      --format json|flink-sql [--flink-version 1.19|1.20|2.x] [--path-prefix URI] [-o FILE]
  import SCRIPT.sql           a Flink SQL script as a weir.job/v1 job (weir import --help)
  run JOB.json [options]      run a job locally (weir run --help)
  serve [options]             serve the designer and the engine over HTTP/WebSocket (weir serve --help)

Options:
  -h, --help                  show this help (or a command's help: weir <command> --help)
  -v, --version               print the version

Exit codes: 0 success, 1 failure while running, 2 invalid job or usage.`;

export function version(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
    return pkg.version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

type Command = (argv: string[], io: CliIO) => Promise<number>;

// A computed specifier: run.ts and serve.ts belong to other modules and load only when used, so
// the CLI's type-check and start-up do not depend on them.
function importSibling(rel: string): Promise<Record<string, unknown>> {
  return import(new URL(rel, import.meta.url).href) as Promise<Record<string, unknown>>;
}

/** Loads `run`/`serve` on demand; a missing module is reported, not thrown. */
async function lazyCommand(io: CliIO, name: string, load: () => Promise<Record<string, unknown>>, exportName: string): Promise<Command | null> {
  try {
    const mod = await load();
    const fn = mod[exportName];
    if (typeof fn === 'function') return fn as Command;
    io.err(`weir ${name}: this build has no '${name}' command (${exportName} missing)`);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code === 'ERR_MODULE_NOT_FOUND' && new RegExp(`module '[^']*cli[\\\\/]${name}\\.ts'`).test(err.message)) {
      io.err(`weir ${name}: this build has no '${name}' command (engine/cli/${name}.ts not found)`);
    } else {
      throw e;
    }
  }
  return null;
}

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
      case '-h': case '--help': case 'help':
        io.out(USAGE);
        return EXIT_OK;
      case '-v': case '--version': case 'version':
        io.out(`weir ${version()}`);
        return EXIT_OK;
      case 'validate':
        return await validateCommand(rest, io);
      case 'export':
        return await exportCommand(rest, io);
      case 'import': {
        const imp = await lazyCommand(io, 'import-command', () => importSibling('./import-command.ts'), 'importCommand');
        return imp ? await imp(rest, io) : EXIT_FAILURE;
      }
      case 'run': {
        const run = await lazyCommand(io, 'run', () => importSibling('./run.ts'), 'runCommand');
        return run ? await run(rest, io) : EXIT_FAILURE;
      }
      case 'serve': {
        const serve = await lazyCommand(io, 'serve', () => importSibling('./serve.ts'), 'serveCommand');
        return serve ? await serve(rest, io) : EXIT_FAILURE;
      }
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
