/**
 * Weir deletes only what it wrote: a job's checkpoint root (`<checkpointing.dir>/<jobName>/`)
 * carries an ownership marker, written before anything else in it, and cleanup runs only under a
 * marker naming the same job.
 *
 * Rules:
 * - No root, or an empty one: the marker is written first, then the storage may use it.
 * - A non-empty root without a marker, a marker of another job, or (under our marker) a top-level
 *   entry that is not Weir's (`chk-N`, `shared`, `savepoints`, lock, temp files) is refused with
 *   the offending names: nothing is deleted, the run does not start.
 * - An incomplete `chk-N` (no `_metadata`) is removed only when it holds nothing but regular files;
 *   anything else in it (a folder, a symlink) is refused the same way.
 */
import { lstat, mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic, isTempFileName } from './atomic-file.ts';
import { SAVEPOINTS_DIR, SHARED_DIR, parseCheckpointFolder } from './fs-layout.ts';
import { CheckpointStorageRefusedError } from '../contracts/checkpoint-storage.ts';

export const OWNER_MARKER = '.weir-checkpoints.json';
const OWNER_FORMAT = 'weir.checkpoint-root/v1';
/** The run lock (runtime/job/run-lock.ts) lives beside the marker. */
const LOCK_NAMES = new Set(['.weir-lock']);

function list(names: string[]): string {
  return names.length <= 5 ? names.join(', ') : `${names.slice(0, 5).join(', ')} and ${names.length - 5} more`;
}

async function entries(dir: string): Promise<string[] | null> {
  try {
    return await readdir(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

function isOurs(name: string): boolean {
  return (
    name === OWNER_MARKER ||
    LOCK_NAMES.has(name) ||
    name.startsWith(`${OWNER_MARKER}.`) ||
    name.startsWith('.weir-lock.') ||
    isTempFileName(name) ||
    name === SHARED_DIR ||
    name === SAVEPOINTS_DIR ||
    parseCheckpointFolder(name) !== null
  );
}

/** Makes sure `root` is this job's checkpoint root (writing the marker if it is new); throws otherwise. */
export async function claimCheckpointRoot(root: string, job: string): Promise<void> {
  const names = await entries(root);
  const marker = join(root, OWNER_MARKER);
  if (names === null || names.every((n) => LOCK_NAMES.has(n) || isTempFileName(n))) {
    await mkdir(root, { recursive: true });
    await writeFileAtomic(marker, JSON.stringify({ format: OWNER_FORMAT, job, created: new Date().toISOString() }));
    return;
  }
  if (!names.includes(OWNER_MARKER)) {
    const listed = names.filter((n) => !LOCK_NAMES.has(n)).sort();
    throw new CheckpointStorageRefusedError(
      `checkpoint folder ${root} holds files Weir did not write (${list(listed)}) ` +
        `and no ${OWNER_MARKER} marker; Weir never deletes what it cannot prove it created. Nothing was changed. Point ` +
        `settings.checkpointing.dir at an empty or new folder.`,
    );
  }
  let owner: { format?: string; job?: string };
  try {
    owner = JSON.parse(await readFile(marker, 'utf8')) as typeof owner;
  } catch {
    owner = {};
  }
  if (owner.format !== OWNER_FORMAT || typeof owner.job !== 'string') {
    throw new CheckpointStorageRefusedError(
      `checkpoint folder ${root}: its marker ${marker} is damaged. Nothing was changed. ` +
        `Point settings.checkpointing.dir at another folder, or repair the marker.`,
    );
  }
  if (owner.job !== job) {
    throw new CheckpointStorageRefusedError(
      `checkpoint folder ${root} belongs to job '${owner.job}', not '${job}'. Nothing ` +
        `was changed. Rename the job or point settings.checkpointing.dir elsewhere.`,
    );
  }
  const foreign = names.filter((n) => !isOurs(n)).sort();
  if (foreign.length > 0) {
    throw new CheckpointStorageRefusedError(
      `checkpoint folder ${root} holds files Weir did not write: ${list(foreign)}. ` +
        `Nothing was changed. Move them away, or point settings.checkpointing.dir elsewhere.`,
    );
  }
}

/** Throws unless `folder` (an incomplete checkpoint about to be removed) holds only regular files. */
export async function assertOnlyFiles(folder: string): Promise<void> {
  const odd: string[] = [];
  for (const n of (await entries(folder)) ?? []) {
    const st = await lstat(join(folder, n));
    if (!st.isFile()) odd.push(n);
  }
  if (odd.length > 0) {
    throw new CheckpointStorageRefusedError(
      `incomplete checkpoint ${folder} holds entries Weir never writes there ` +
        `(${list(odd.sort())}), so it is not removed. Nothing was changed. Move them away and run again.`,
    );
  }
}
