/**
 * Folder layout of the filesystem checkpoint storage:
 *
 *   <checkpointing.dir>/<jobName>/
 *     chk-<id>/            one folder per checkpoint; `_metadata` written last
 *     shared/              incremental files referenced by several checkpoints
 *     savepoints/sp-<id>-<time>/   self-contained savepoints (never share files)
 *
 * A checkpoint or savepoint folder without `_metadata` is incomplete (the process died while writing
 * it) and is ignored, then removed when the storage opens.
 */
import { isAbsolute, join, resolve } from 'node:path';
import type { CheckpointKind } from '../contracts/checkpoint-storage.ts';

export const METADATA_FILE = '_metadata';
export const SHARED_DIR = 'shared';
export const SAVEPOINTS_DIR = 'savepoints';

const CHK = /^chk-(\d+)$/;
const SP = /^sp-(\d+)-(\d+)$/;

/** Job names become folder names: keep them readable but safe on every OS. */
function jobFolderName(jobName: string): string {
  const safe = jobName
    .trim()
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^\.+/, '_');
  return safe || 'job';
}

export function jobRoot(checkpointDir: string, jobName: string): string {
  return resolve(checkpointDir, jobFolderName(jobName));
}

/** Relative folder of a checkpoint (`chk-7`) or savepoint (`savepoints/sp-7-1700000000000`). */
export function checkpointFolder(id: number, kind: CheckpointKind, barrierTimestamp: number): string {
  return kind === 'savepoint' ? `${SAVEPOINTS_DIR}/sp-${id}-${Math.floor(barrierTimestamp)}` : `chk-${id}`;
}

export function parseCheckpointFolder(name: string): number | null {
  const m = CHK.exec(name);
  return m ? Number(m[1]) : null;
}

export function parseSavepointFolder(name: string): { id: number; time: number } | null {
  const m = SP.exec(name);
  return m ? { id: Number(m[1]), time: Number(m[2]) } : null;
}

export function resolveIn(root: string, path: string): string {
  return isAbsolute(path) ? path : join(root, path);
}
