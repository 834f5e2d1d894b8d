/**
 * The committed output of a `sink.file` folder, read back for the app's committed-output viewer:
 * only Weir's committed names (`part-<lineage>-<subtask>-<checkpoint>.<ext>`, sink-manifest.ts),
 * never `.pending-*` transactions or foreign files, newest first (files by modification time, the
 * lines of each file from its last), one page at a time.
 *
 * Reads every committed file once per call to count its rows; a folder past READ_LIMIT_BYTES is
 * read only up to that many bytes of its newest files, and the answer says so.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { FileSinkFormat } from '../graph/types.ts';
import { parseFinalName } from './sink-manifest.ts';
import { splitCsvLine } from './sample-columns.ts';

export const READ_LIMIT_BYTES = 64 * 1024 * 1024;

export interface CommittedPage {
  rows: Array<Record<string, unknown>>;
  /** Rows in the files read (all committed files unless `message` says otherwise). */
  total: number;
  files: number;
  message?: string;
}

function committedFiles(dir: string): Array<{ name: string; mtime: number; size: number }> {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => parseFinalName(n) !== null)
    .flatMap((name) => {
      const s = statSync(join(dir, name), { throwIfNoEntry: false });
      return s?.isFile() ? [{ name, mtime: s.mtimeMs, size: s.size }] : [];
    })
    .sort((a, b) => b.mtime - a.mtime || b.name.localeCompare(a.name));
}

/** One file's rows in file order: JSON objects (jsonl, changelog-json) or CSV lines under its header. */
function rowsOf(text: string, format: FileSinkFormat): Array<Record<string, unknown>> {
  const lines = text.split('\n').filter((l) => l.length > 0);
  if (format === 'csv') {
    const [head, ...rest] = lines;
    if (head === undefined) return [];
    const columns = splitCsvLine(head);
    return rest.map((l) => {
      const cells = splitCsvLine(l);
      return Object.fromEntries(columns.map((c, i) => [c, cells[i] ?? '']));
    });
  }
  return lines.map((l) => {
    try {
      const v: unknown = JSON.parse(l);
      return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : { value: v };
    } catch {
      return { line: l };
    }
  });
}

/** Rows `offset .. offset+limit` of the committed output, newest first. */
export function readCommittedFileRows(
  dir: string,
  format: FileSinkFormat,
  offset: number,
  limit: number,
): CommittedPage {
  const files = committedFiles(dir);
  const rows: Array<Record<string, unknown>> = [];
  let total = 0;
  let bytes = 0;
  let read = 0;
  for (const f of files) {
    if (bytes + f.size > READ_LIMIT_BYTES && read > 0) break;
    bytes += f.size;
    read++;
    const fileRows = rowsOf(readFileSync(join(dir, f.name), 'utf8'), format);
    // This file covers newest-first positions total .. total+n-1; its last line is the newest.
    const from = Math.max(offset, total);
    const to = Math.min(offset + limit, total + fileRows.length);
    for (let i = from; i < to; i++) rows.push(fileRows[fileRows.length - 1 - (i - total)]);
    total += fileRows.length;
  }
  return {
    rows,
    total,
    files: files.length,
    ...(read < files.length
      ? { message: `only the newest ${read} of ${files.length} files were read (${READ_LIMIT_BYTES / 2 ** 20} MB)` }
      : {}),
  };
}
