/**
 * Transactions of the two-phase-commit file sink (docs/architecture.md, two-phase commit), as plain file operations shared
 * by the sink operator and by the host's recovery step.
 *
 * Layout under the sink folder:
 *   .pending-<lineage>-<subtask>-<instance>-<seq>/part   an open or pre-committed transaction (hidden)
 *   part-<lineage>-<subtask>-<checkpoint>.<ext>   a committed file (visible)
 * The final name depends only on the run lineage, subtask and checkpoint id, so committing the same
 * transaction twice is harmless: a final file that exists is never replaced (the transaction was
 * committed already), the temp folder is just removed.
 * Transaction folders carry a random per-process instance token: a restored checkpoint lists its
 * pending folders by name, and a later process reusing such a name for a new open transaction would
 * otherwise have that half-written file committed over the real one by the next recovery.
 */
import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  existsSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';

export interface PendingTransaction {
  /** Checkpoint whose barrier pre-committed it (commit on notifyCheckpointComplete(>= this)). */
  checkpointId: number;
  /** Folder name of the transaction inside the sink folder. */
  dir: string;
  /** Final file name inside the sink folder. */
  final: string;
  records: number;
}

export const PENDING_PREFIX = '.pending-';
const DATA_FILE = 'part';

export function finalName(lineage: string, subtask: number, checkpoint: number | 'end', ext: string): string {
  const c = checkpoint === 'end' ? 'end' : String(checkpoint).padStart(6, '0');
  return `part-${lineage}-${subtask}-${c}.${ext}`;
}

function fsyncDir(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    /* not supported */
  }
}

/** An open transaction: a hidden folder with one data file, appended to batch by batch. */
export class FileTransaction {
  private fd: number;
  records = 0;
  bytes = 0;
  constructor(
    readonly sinkDir: string,
    readonly dir: string,
  ) {
    mkdirSync(join(sinkDir, dir), { recursive: true });
    this.fd = openSync(join(sinkDir, dir, DATA_FILE), 'w');
  }

  write(text: string, records: number): void {
    if (text.length === 0) return;
    this.bytes += writeSync(this.fd, text);
    this.records += records;
  }

  /** preCommit: flush and close, durable on disk before the checkpoint can complete. */
  preCommit(): void {
    fsyncSync(this.fd);
    closeSync(this.fd);
    fsyncDir(join(this.sinkDir, this.dir));
    this.fd = -1;
  }

  abort(): void {
    if (this.fd >= 0) {
      try {
        closeSync(this.fd);
      } catch {
        /* closed */
      }
      this.fd = -1;
    }
    rmSync(join(this.sinkDir, this.dir), { recursive: true, force: true });
  }
}

/** commit: move the pre-committed file to its final name. Idempotent. */
export function commitTransaction(sinkDir: string, t: PendingTransaction): void {
  const from = join(sinkDir, t.dir, DATA_FILE);
  const to = join(sinkDir, t.final);
  if (existsSync(from) && !existsSync(to)) {
    renameSync(from, to);
    fsyncDir(sinkDir);
  }
  rmSync(join(sinkDir, t.dir), { recursive: true, force: true });
}

/**
 * Recovery of one sink folder before tasks start: commit what the restored checkpoint lists as
 * pending, abort (delete) every other transaction folder of this sink.
 */
export function recoverSinkFolder(
  sinkDir: string,
  pending: PendingTransaction[],
): { committed: number; aborted: number } {
  mkdirSync(sinkDir, { recursive: true });
  for (const t of pending) commitTransaction(sinkDir, t);
  let aborted = 0;
  for (const name of readdirSync(sinkDir)) {
    if (name.startsWith(PENDING_PREFIX)) {
      rmSync(join(sinkDir, name), { recursive: true, force: true });
      aborted++;
    }
  }
  return { committed: pending.length, aborted };
}
