/**
 * The rows Flink produced for each case of the parity corpus, recorded from a run on real Flink
 * (`npm run parity:record`, test/flink-runner/record-parity.ts): one file per case in recorded/,
 * named after the case's file and index (`windows-3.json` for `windows.json#3`).
 *
 * A recording carries the exact Flink version that produced it and the hash of the case it was
 * made from (input, nodes, event time, columns, bad-record policy): a case edited after its
 * recording no longer matches, and the corpus test says to record again. Either `rows` (the
 * sink's rows, changelogs folded, keys and rows sorted) or `error` (Flink failed the job: its
 * message) is present.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inputLines, type ParityCase } from './corpus.ts';
import { normalizeRows, type Row } from './rows.ts';

export const RECORDED_DIR = fileURLToPath(new URL('./recorded/', import.meta.url));

export interface Recording {
  /** The case's name, for whoever reads the file. */
  case: string;
  /** The Flink version that produced it, as the runner reported it (e.g. 1.20.3). */
  flinkVersion: string;
  /** `caseHash` of the case when recorded. */
  caseHash: string;
  rows?: Row[];
  error?: string;
}

/** What decides a case's rows: its input and its job (not its name, citation or failure regex). */
export function caseHash(c: ParityCase): string {
  const job = { input: inputLines(c), nodes: c.nodes, eventTime: c.eventTime, columns: c.columns, bad: c.onBadRecord };
  return createHash('sha256').update(JSON.stringify(job)).digest('hex').slice(0, 16);
}

export function recordingPath(c: ParityCase): string {
  const [file, index] = c.id.split('#');
  return join(RECORDED_DIR, `${file.replace(/\.json$/, '')}-${index}.json`);
}

export function readRecording(c: ParityCase): Recording | undefined {
  const path = recordingPath(c);
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Recording) : undefined;
}

/** Why a case's recording cannot be used (missing or made from another version of the case), or undefined. */
export function staleRecording(c: ParityCase, rec: Recording | undefined): string | undefined {
  if (!rec) return `${c.id} has no recording from Flink: run npm run parity:record`;
  if (rec.caseHash !== caseHash(c))
    return `${c.id} changed since its recording (${recordingPath(c)}): run npm run parity:record`;
  return undefined;
}

/** The recording of what Flink did with a case: its sink's rows, or its error. */
export function recordingOf(
  c: ParityCase,
  flinkVersion: string,
  outcome: { rows: Row[]; format: string } | { error: string },
): Recording {
  const base = { case: c.name, flinkVersion, caseHash: caseHash(c) };
  if ('error' in outcome) return { ...base, error: outcome.error };
  return { ...base, rows: normalizeRows(outcome.rows, outcome.format).map((r) => JSON.parse(r) as Row) };
}

export function writeRecording(c: ParityCase, rec: Recording): void {
  mkdirSync(RECORDED_DIR, { recursive: true });
  writeFileSync(recordingPath(c), `${JSON.stringify(rec, null, 2)}\n`);
}
