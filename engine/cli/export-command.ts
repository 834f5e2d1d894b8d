/**
 * `weir export JOB.json --format json|flink-sql [-o FILE]`.
 * json: the normalized job as a complete weir.job/v1 document (it validates again to the same job).
 * flink-sql: the Flink SQL exporter (engine/export/flink-sql).
 */

import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { exportFlinkSql } from '../export/flink-sql/index.ts';
import { exportJobJson } from '../export/json/index.ts';
import { loadJob } from './load-job.ts';
import { EXIT_FAILURE, EXIT_INVALID, EXIT_OK, printProblems, type CliIO } from './output.ts';

export const EXPORT_USAGE = `Usage: weir export JOB.json [--format json|flink-sql] [--flink-version V] [--path-prefix URI] [-o FILE]

  -f, --format         json (default): the job with every default filled in, as weir.job/v1
                       flink-sql: a Flink SQL script (CREATE TABLE ... / INSERT INTO ...)
      --flink-version  flink-sql: 1.19, 1.20 or 2.x (default 2.x): the configuration keys that version reads
      --path-prefix    flink-sql: relative data and checkpoint paths under this URI (e.g. s3://bucket/weir/)
                       instead of file:/// URIs under the job's folder
  -o, --output         write to FILE instead of stdout`;

const FLINK_VERSIONS = ['1.19', '1.20', '2.x'] as const;
type FlinkVersionArg = (typeof FLINK_VERSIONS)[number];

export async function exportCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      format: { type: 'string', short: 'f', default: 'json' },
      output: { type: 'string', short: 'o' },
      'flink-version': { type: 'string' },
      'path-prefix': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) {
    io.out(EXPORT_USAGE);
    return EXIT_OK;
  }
  if (positionals.length !== 1) {
    io.err(positionals.length === 0 ? 'weir export: missing JOB.json' : 'weir export: exactly one JOB.json expected');
    io.err(EXPORT_USAGE);
    return EXIT_INVALID;
  }
  const format = values.format;
  if (format !== 'json' && format !== 'flink-sql') {
    io.err(`weir export: unknown format '${format}' (allowed: json, flink-sql)`);
    return EXIT_INVALID;
  }
  const version = values['flink-version'];
  if (version !== undefined && !(FLINK_VERSIONS as readonly string[]).includes(version)) {
    io.err(`weir export: unknown --flink-version '${version}' (allowed: ${FLINK_VERSIONS.join(', ')})`);
    return EXIT_INVALID;
  }
  const prefix = values['path-prefix'];
  if (prefix !== undefined && !/^[a-z][a-z0-9+.-]*:\/\/./i.test(prefix)) {
    io.err(`weir export: --path-prefix '${prefix}' is not a URI such as s3://bucket/weir/ or file:///data/weir/`);
    return EXIT_INVALID;
  }
  if (format === 'json' && (version !== undefined || prefix !== undefined)) {
    io.err('weir export: --flink-version and --path-prefix apply to --format flink-sql only');
    return EXIT_INVALID;
  }
  const loaded = await loadJob(positionals[0]);
  if (!loaded.ok) {
    printProblems(io, loaded.problems);
    return EXIT_INVALID;
  }

  let text: string;
  if (format === 'json') {
    text = exportJobJson(loaded.job);
  } else {
    const result = exportFlinkSql(loaded.job, {
      ...(version !== undefined ? { flinkVersion: version as FlinkVersionArg } : {}),
      ...(prefix !== undefined ? { pathPrefix: prefix } : {}),
    });
    printProblems(
      io,
      result.warnings.map((w) => ({ ...w, severity: w.severity ?? 'warning' })),
    );
    text = result.text.endsWith('\n') ? result.text : `${result.text}\n`;
  }
  if (values.output) {
    try {
      await writeFile(values.output, text);
    } catch (e) {
      io.err(`weir export: cannot write ${values.output}: ${(e as Error).message}`);
      return EXIT_FAILURE;
    }
    io.err(`wrote ${values.output}`);
  } else {
    io.out(text);
  }
  return EXIT_OK;
}
