/**
 * `follow: true` follows a file the way `tail -F` does, through log rotation:
 * - replaced (logrotate's `create`, `mv x x.1 && touch x`): the path now names another inode. The
 *   old file has been read to its end (a last line without a newline counts as a line: nothing more
 *   will be written to it), then the new file is read from its start;
 * - truncated (`copytruncate`, `: > x`): the file is shorter than what was read. It is read again
 *   from its start;
 * - moved away with nothing at the path yet: the old file is kept until a new one appears.
 *
 * Checked only when the reader waits at the end of the file, so the old content is always read in
 * full first. As with `tail -F`, a file truncated and then grown past the old length between two
 * polls (100 ms) looks like an append: its first bytes are not re-read.
 */
import { fstatSync, statSync } from 'node:fs';

export interface Rotation {
  kind: 'replaced' | 'truncated';
  /** For the run's log: what changed, and that the new content is read from its start. */
  message: string;
}

/** `readTo`: the byte offset up to which the open file `fd` has been read. */
export function detectRotation(path: string, fd: number, readTo: number): Rotation | null {
  const open = fstatSync(fd);
  let now;
  try {
    now = statSync(path);
  } catch {
    return null;
  }
  if (now.ino !== open.ino || now.dev !== open.dev) {
    return {
      kind: 'replaced',
      message: `replaced by a new file (inode ${open.ino} -> ${now.ino}); reading the new file from its start`,
    };
  }
  if (open.size < readTo) {
    return {
      kind: 'truncated',
      message: `truncated to ${open.size} bytes after ${readTo} were read; reading it again from its start`,
    };
  }
  return null;
}
