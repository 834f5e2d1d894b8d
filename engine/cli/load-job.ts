/**
 * Reading a job file for every command (validate, export, run, serve): read, parse, validate,
 * and set `baseDir` to the file's folder so relative paths in the job resolve against it.
 * Never throws for bad input: a missing file or broken JSON becomes a problem whose path is the
 * file name, e.g. `jobs/x.json: not valid JSON: expected ',' or '}' (line 3, column 5)`.
 */

import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { JobProblem, NormalizedJob } from '../graph/types.ts';
import { validateJob } from '../graph/validate.ts';
import { fileSampler } from '../connectors/sampled-types.ts';
import { applyRunOverrides, type RunOverrides } from '../graph/run-overrides.ts';
import { readSinkCatalogs } from '../connectors/postgres/sink-catalogs.ts';

export type LoadJobResult =
  | { ok: true; file: string; baseDir: string; document: unknown; job: NormalizedJob; problems: JobProblem[] }
  | { ok: false; file: string; stage: 'read' | 'parse' | 'validate'; problems: JobProblem[] };

function lineAndColumn(text: string, position: number): { line: number; column: number } {
  let line = 1;
  let last = -1;
  for (let i = 0; i < position && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      last = i;
    }
  }
  return { line, column: position - last };
}

/** V8's JSON.parse message without its own position suffix, plus line and column. */
export function describeJsonError(text: string, error: unknown): string {
  const raw = error instanceof Error ? error.message : String(error);
  const pos = /at position (\d+)/.exec(raw);
  let message = raw
    .replace(/\s*\(line \d+ column \d+\)\s*$/, '')
    .replace(/\s*in JSON at position \d+.*$/, '')
    .replace(/^Unexpected end of JSON input$/, 'unexpected end of the file');
  message = message.charAt(0).toLowerCase() + message.slice(1);
  if (text.trim() === '') return 'the file is empty';
  if (pos) {
    const { line, column } = lineAndColumn(text, Number(pos[1]));
    return `${message} (line ${line}, column ${column})`;
  }
  if (/end of/.test(message)) {
    const { line, column } = lineAndColumn(text, text.length);
    return `${message} (line ${line}, column ${column})`;
  }
  return message;
}

function readErrorMessage(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EISDIR') return 'is a folder, not a job file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return error instanceof Error ? error.message : String(error);
}

/** Reads and parses a job file without validating it (the designer opens invalid drafts too). */
export async function readJobFile(
  file: string,
): Promise<{ ok: true; document: unknown } | { ok: false; stage: 'read' | 'parse'; problem: JobProblem }> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    return {
      ok: false,
      stage: 'read',
      problem: { path: file, message: `cannot read job file: ${readErrorMessage(e)}`, severity: 'error' },
    };
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  try {
    return { ok: true, document: JSON.parse(text) };
  } catch (e) {
    return {
      ok: false,
      stage: 'parse',
      problem: { path: file, message: `not valid JSON: ${describeJsonError(text, e)}`, severity: 'error' },
    };
  }
}

export interface LoadJobOptions {
  /**
   * Read the PostgreSQL sinks' tables (a few seconds at most per unreachable server) and check the
   * columns the sinks receive against them, as Flink's planner checks an INSERT INTO: what
   * `weir validate` and `weir run` do; exporting or previewing a job writes into no table.
   */
  checkSinkTables?: boolean;
}

/** `overrides` (weir run's) are applied before validation, so they are checked like the file. */
export async function loadJob(
  file: string,
  overrides: RunOverrides = {},
  opts: LoadJobOptions = {},
): Promise<LoadJobResult> {
  const read = await readJobFile(file);
  if (!read.ok) return { ok: false, file, stage: read.stage, problems: [read.problem] };
  const baseDir = dirname(resolve(file));
  const document = applyRunOverrides(read.document, overrides);
  const sinkCatalogs = opts.checkSinkTables ? await readSinkCatalogs(document) : undefined;
  // An undeclared file source is typed from a sample of its data, as the run and the export type it.
  const result = validateJob(document, { baseDir, sampled: fileSampler(baseDir), sinkCatalogs });
  if (!result.ok) return { ok: false, file, stage: 'validate', problems: result.problems };
  return { ok: true, file, baseDir, document: read.document, job: result.job, problems: result.problems };
}
