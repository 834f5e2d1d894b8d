/**
 * What `source.file` checks on the bytes of a line before decoding it: text is UTF-8, so a line
 * that is not valid UTF-8 is a bad record (counted, dead-lettered with its text as far as it
 * decodes), never a row whose text silently became U+FFFD; and a UTF-8 byte order mark at the
 * start of a file (Excel and Notepad write one) is skipped, not part of line 1.
 *
 * Validation costs one `isUtf8` (simdutf) per chunk read: the whole lines of a chunk are checked
 * at once, and lines are checked one by one only in a chunk that holds an invalid one. `\n` never
 * occurs inside a multi-byte UTF-8 sequence, so whole lines are whole characters.
 */
import { isUtf8 } from 'node:buffer';
import { readSync } from 'node:fs';

const BOM = [0xef, 0xbb, 0xbf];

export const BOM_BYTES = BOM.length;

/** Whether `buf` holds a whole UTF-8 byte order mark at `start`. */
export function startsWithBom(buf: Buffer, start: number): boolean {
  return buf.length - start >= BOM_BYTES && BOM.every((b, i) => buf[start + i] === b);
}

/** 3 when the file `fd` starts with a UTF-8 byte order mark, else 0. */
export function bomLength(fd: number): number {
  const head = Buffer.alloc(BOM_BYTES);
  return startsWithBom(head.subarray(0, readSync(fd, head, 0, BOM_BYTES, 0)), 0) ? BOM_BYTES : 0;
}

/** How many bytes of `buf` (whole lines, up to its last `\n`) are known to be valid UTF-8 at once. */
export function validWholeLines(buf: Buffer): number {
  const last = buf.lastIndexOf(10);
  return last >= 0 && isUtf8(buf.subarray(0, last + 1)) ? last + 1 : 0;
}

export function isUtf8Line(buf: Buffer, start: number, end: number): boolean {
  return isUtf8(buf.subarray(start, end));
}

export const INVALID_UTF8 = 'line is not valid UTF-8 (its text is shown with U+FFFD where the bytes are invalid)';
