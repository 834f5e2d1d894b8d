/**
 * How `source.file` positions are keyed in a checkpoint, so a restored position belongs to the
 * node and the input it read, not to one spelling of a path (issue 23): a moved job folder, a
 * symlink, or `weir serve` resolving one, all resume at exactly the record after Sn.
 * - Key: the file's name inside the source's folder, or `.` for a source that reads one file.
 *   (The node is the key of the state itself: SubtaskStateSnapshot.operatorId.)
 * - Fingerprint, taken with each position: size, mtime and inode (for the message) and a sha256
 *   of the first and of the last 4 KiB before the offset, which is what decides: a file moved or
 *   copied keeps those bytes; another file, or one rewritten, almost never does.
 * - A split of a big file (file-splits.ts) starting at byte s > 0 is keyed `key/s`.
 * - Checkpoints of older versions keyed positions by absolute path (`files`): they are read by
 *   file name, and checked only by size (they hold no hash).
 */
import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { basename, join } from 'node:path';

export interface FilePosition {
  offset: number;
  line: number;
  /** The file when the position was taken; absent in checkpoints of older versions. */
  size?: number;
  mtimeMs?: number;
  ino?: number;
  sha256?: string;
}

/** The position state a file source subtask checkpoints. */
export interface FileSourcePositions {
  inputs: Record<string, FilePosition>;
}

export const SINGLE_FILE_KEY = '.';
const EDGE_BYTES = 4096;

/** The key of `file` (absolute, under `root`) in the checkpoint. */
export function positionKey(root: string, file: string): string {
  return file === root ? SINGLE_FILE_KEY : basename(file);
}

/** The file a key (of a file or of one of its splits) names today: the source's path itself, or a file in its folder. */
export function fileOfKey(root: string, rootIsFolder: boolean, key: string): string {
  return rootIsFolder ? join(root, parseSplitKey(key).fileKey) : root;
}

/** The split key of the split of `fileKey` starting at `start`. */
export function splitKey(fileKey: string, start: number): string {
  return start === 0 ? fileKey : `${fileKey}/${start}`;
}

/** The file key and split start a checkpoint key names. */
export function parseSplitKey(key: string): { fileKey: string; start: number } {
  const slash = key.lastIndexOf('/');
  if (slash < 0) return { fileKey: key, start: 0 };
  const start = Number(key.slice(slash + 1));
  return Number.isSafeInteger(start) && start > 0
    ? { fileKey: key.slice(0, slash), start }
    : { fileKey: key, start: 0 };
}

/**
 * The union of the positions of every restored subtask, keyed as today. An old checkpoint's
 * absolute paths become file names (its folder may have moved since).
 */
export function restoredPositions(restored: readonly unknown[], rootIsFolder: boolean): Map<string, FilePosition> {
  const out = new Map<string, FilePosition>();
  for (const r of restored) {
    const state = r as Partial<FileSourcePositions> & { files?: Record<string, FilePosition> };
    for (const [k, p] of Object.entries(state?.inputs ?? {})) out.set(k, { ...p });
    for (const [path, p] of Object.entries(state?.files ?? {}))
      out.set(rootIsFolder ? basename(path) : SINGLE_FILE_KEY, { offset: p.offset, line: p.line });
  }
  return out;
}

function edgesHash(fd: number, offset: number): string {
  const hash = createHash('sha256');
  const head = Math.min(offset, EDGE_BYTES);
  const buf = Buffer.alloc(EDGE_BYTES);
  hash.update(buf.subarray(0, readSync(fd, buf, 0, head, 0)));
  const tailStart = Math.max(head, offset - EDGE_BYTES);
  hash.update(buf.subarray(0, readSync(fd, buf, 0, offset - tailStart, tailStart)));
  return hash.digest('hex');
}

/** Size, mtime, inode and the edges' hash of `file` as read up to `offset`; null if unreadable. */
export function fingerprint(file: string, offset: number): Omit<FilePosition, 'offset' | 'line'> | null {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return null;
  }
  try {
    const st = fstatSync(fd);
    return { size: st.size, mtimeMs: st.mtimeMs, ino: st.ino, sha256: edgesHash(fd, Math.min(offset, st.size)) };
  } catch {
    return null; // not readable as a file (a folder now): no fingerprint matches it
  } finally {
    closeSync(fd);
  }
}

/** Why `file` is not the input `pos` was taken from, or null when it is (or may be: old format). */
export function inputMismatch(file: string, pos: FilePosition): string | null {
  let size: number;
  try {
    size = statSync(file).size;
  } catch {
    return `${file} no longer exists`;
  }
  if (size < pos.offset) return `${file} has ${size} bytes, fewer than the ${pos.offset} already read from it`;
  if (pos.sha256 === undefined) return null;
  const now = fingerprint(file, pos.offset);
  if (now?.sha256 !== pos.sha256) {
    const was = pos.ino !== undefined ? ` (it was inode ${pos.ino}, ${pos.size} bytes)` : '';
    return `${file} is not the file read before${was}: its bytes before offset ${pos.offset} differ`;
  }
  return null;
}
