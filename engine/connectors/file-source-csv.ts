/** The CSV side of `source.file` (file-source.ts): the header of a file read from the middle, and a row by it. */
import { readSync } from 'node:fs';
import type { Row } from '../contracts/operator.ts';
import { csvValue, parseCsvLine } from './formats/csv.ts';
import { bomLength } from './line-bytes.ts';

/** The header of the CSV file open as `fd` (a restored reader starts past it). */
export function readCsvHeader(fd: number): string[] {
  const b = Buffer.alloc(65536);
  const n = readSync(fd, b, 0, b.length, 0);
  const nl = b.subarray(0, n).indexOf(10);
  const from = bomLength(fd);
  return (
    parseCsvLine(
      b
        .subarray(from, nl < 0 ? n : nl)
        .toString('utf8')
        .replace(/\r$/, ''),
    ) ?? []
  );
}

/** The line's cells by the header's names, typed by the declared columns; null when the cell count differs. */
export function csvRow(
  text: string,
  header: readonly string[],
  columns: Record<string, string> | undefined,
): Row | null {
  const cells = parseCsvLine(text);
  if (cells === null || cells.length !== header.length) return null;
  const row: Row = {};
  for (let i = 0; i < header.length; i++) row[header[i]] = csvValue(cells[i], columns?.[header[i]]);
  return row;
}
