/**
 * `weir import SCRIPT.sql [-o JOB.weir.json]`: a Flink SQL script as a laid-out weir.job/v1 job
 * (engine/import/flink-sql, loaded only for this command). Everything without a Weir node is
 * printed as `SCRIPT.sql:LINE:COLUMN: message`; errors mean parts of the script were left out
 * (exit 2, the job is still written so the designer can show what came through), unless a
 * statement could not be read at all (syntax error, OVER aggregation): then nothing is written.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { validateJob } from '../graph/validate.ts';
import { EXIT_FAILURE, EXIT_INVALID, EXIT_OK, printProblems, type CliIO } from './output.ts';

export const IMPORT_USAGE = `Usage: weir import SCRIPT.sql [-o JOB.weir.json] [--name NAME]

  Turns a Flink SQL script (SET, CREATE TABLE with filesystem/datagen/print connectors and
  WATERMARK, CREATE VIEW, INSERT INTO ... SELECT, TUMBLE/HOP/SESSION windows, UNION ALL,
  EXECUTE STATEMENT SET) into a weir.job/v1 job. What has no Weir node is listed with its line
  and column. Relative paths in the job are relative to the output file's folder.

  -o, --output   write the job to this file instead of stdout
      --name     the job's name when the script does not say (default: the script's file name)`;

/** Problems of statements the importer could not read (see importCommand). */
const UNREAD = /^(syntax error:|OVER aggregations have no Weir node)/;

type Importer = (
  sql: string,
  opts: { baseDir?: string; name?: string },
) => {
  job: unknown;
  problems: Array<{ line: number; column: number; message: string; severity: 'error' | 'warning' }>;
};

export async function importCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      output: { type: 'string', short: 'o' },
      name: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) {
    io.out(IMPORT_USAGE);
    return EXIT_OK;
  }
  if (positionals.length !== 1) {
    io.err(
      positionals.length === 0 ? 'weir import: missing SCRIPT.sql' : 'weir import: exactly one SCRIPT.sql expected',
    );
    io.err(IMPORT_USAGE);
    return EXIT_INVALID;
  }
  const file = positionals[0];
  let sql: string;
  try {
    sql = await readFile(file, 'utf8');
  } catch (e) {
    io.err(`weir import: cannot read ${file}: ${(e as Error).message}`);
    return EXIT_INVALID;
  }
  // Imported on use: the importer (and dt-sql-parser) load only for this command; a literal
  // specifier so the CLI bundle (scripts/build-cli.mjs) carries it as its own chunk.
  const mod = (await import('../import/flink-sql/index.ts')) as { importFlinkSql: Importer };
  const baseDir = values.output ? dirname(resolve(values.output)) : process.cwd();
  const name = values.name ?? file.replace(/^.*[\\/]/, '').replace(/\.sql$/i, '');
  const { job, problems } = mod.importFlinkSql(sql, { baseDir, name });
  for (const p of problems) io.err(`${file}:${p.line}:${p.column}: ${p.severity}: ${p.message}`);
  // A statement that could not be read at all (a syntax error, an OVER aggregation) would leave a
  // job that looks whole but is not: nothing is written. Unsupported parts that were read (a
  // connector without a Weir node) still give the partial job, for the designer to show.
  const unread = problems.filter((p) => p.severity === 'error' && UNREAD.test(p.message)).length;
  if (unread > 0) {
    io.err(`weir import: nothing written: ${unread} statement${unread === 1 ? '' : 's'} could not be read (above)`);
    return EXIT_INVALID;
  }
  const v = validateJob(job, { baseDir });
  printProblems(io, v.problems);
  const text = `${JSON.stringify(job, null, 2)}\n`;
  if (values.output) {
    try {
      await writeFile(values.output, text);
    } catch (e) {
      io.err(`weir import: cannot write ${values.output}: ${(e as Error).message}`);
      return EXIT_FAILURE;
    }
    io.err(`wrote ${values.output}`);
  } else {
    io.out(text);
  }
  return problems.some((p) => p.severity === 'error') || !v.ok ? EXIT_INVALID : EXIT_OK;
}
