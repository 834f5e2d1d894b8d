/**
 * How `source.file` divides its input among subtasks, as Flink's FileSource does: into splits, a
 * byte range of a file each, assigned round-robin over the subtasks in file order. A bounded JSON
 * Lines file larger than SPLIT_BYTES is cut every SPLIT_BYTES bytes, so several subtasks read one
 * big file; a followed file and a CSV file (one header for the whole file) stay one split.
 *
 * Rules (what makes a restore exact at any parallelism):
 * - A split [start, end) owns the lines that *start* in it: a split with start > 0 begins after
 *   the first newline at or after start - 1 (alignedStart), and reads its last line past `end`.
 *   The splits of a file together hold every line exactly once.
 * - The cut points depend on the file's size only, never on the parallelism, and a checkpoint
 *   keeps one position per split (offset in the file, lines read in the split), all splits of
 *   every subtask: a restore takes the cut points from the checkpoint (splitsFromCheckpoint), so
 *   any parallelism resumes each split where it stopped. A split is done when its offset >= end.
 * - Split 0 is keyed as the whole file always was (positionKey); split k > 0 as `key/start` ('/'
 *   is in no file name). A checkpoint with a file's key but none of its split keys was written
 *   before the file was split (an older version, or a file that grew): the file is one split then.
 */
import { closeSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseSplitKey, splitKey, type FilePosition } from './file-positions.ts';

/** Cut points every 8 MiB: an 80 MB file makes 10 splits, within a split of even across 2 subtasks. */
export const SPLIT_BYTES = 8 << 20;

export interface FileSplit {
  file: string;
  /** The checkpoint key of the split's position. */
  key: string;
  start: number;
  /** Lines that start at or after this belong to the next split; Infinity for a file's last split. */
  end: number;
}

/** The files of `path`: the file itself, or the folder's non-hidden files in name order. */
export function listSourceFiles(path: string): string[] {
  let st;
  try {
    st = statSync(path);
  } catch {
    throw new Error(`source.file: '${path}' does not exist`);
  }
  if (!st.isDirectory()) return [path];
  return readdirSync(path)
    .filter((n) => !n.startsWith('.') && !n.startsWith('_'))
    .sort()
    .map((n) => join(path, n))
    .filter((p) => statSync(p, { throwIfNoEntry: false })?.isFile() === true);
}

/**
 * The splits of one file. `restored` holds the checkpoint's positions by key (null on a fresh
 * start); `splittable` is false for followed and CSV files.
 */
export function fileSplits(
  file: string,
  fileKey: string,
  splittable: boolean,
  restored: ReadonlyMap<string, FilePosition> | null,
  splitBytes = SPLIT_BYTES,
): FileSplit[] {
  let starts: number[];
  const fromCheckpoint = restored ? splitStartsOf(fileKey, restored) : [];
  if (fromCheckpoint.length > 1) starts = fromCheckpoint;
  else if (!splittable || (restored?.has(fileKey) ?? false)) starts = [0];
  else {
    const size = statSync(file, { throwIfNoEntry: false })?.size ?? 0;
    starts = [0];
    for (let s = splitBytes; s < size; s += splitBytes) starts.push(s);
  }
  return starts.map((start, i) => ({
    file,
    key: splitKey(fileKey, start),
    start,
    end: i + 1 < starts.length ? starts[i + 1] : Infinity,
  }));
}

function splitStartsOf(fileKey: string, restored: ReadonlyMap<string, FilePosition>): number[] {
  const starts = new Set<number>();
  for (const key of restored.keys()) {
    const k = parseSplitKey(key);
    if (k.fileKey === fileKey) starts.add(k.start);
  }
  if (starts.size > 0) starts.add(0);
  return [...starts].sort((a, b) => a - b);
}

/**
 * Where the first line of a split starting at `start` begins in the file open as `fd`: `start`
 * when the byte before it is a newline, else just after the next newline (or the file's end).
 */
export function alignedStart(fd: number, start: number): number {
  if (start === 0) return 0;
  const buf = Buffer.allocUnsafe(64 << 10);
  let off = start - 1;
  for (;;) {
    const n = readSync(fd, buf, 0, buf.length, off);
    if (n === 0) return off;
    const nl = buf.subarray(0, n).indexOf(10);
    if (nl >= 0) return off + nl + 1;
    off += n;
  }
}

/** Lines in the file before the first line of the split starting at `start`: its line number base. */
export function linesBeforeSplit(file: string, start: number): number {
  const fd = openSync(file, 'r');
  try {
    const offset = alignedStart(fd, start);
    const buf = Buffer.allocUnsafe(1 << 20);
    let lines = 0;
    for (let off = 0; off < offset;) {
      const n = readSync(fd, buf, 0, Math.min(buf.length, offset - off), off);
      if (n === 0) break;
      const got = buf.subarray(0, n);
      for (let i = got.indexOf(10); i >= 0; i = got.indexOf(10, i + 1)) lines++;
      off += n;
    }
    return lines;
  } finally {
    closeSync(fd);
  }
}
