/**
 * Paths a run will use, checked before anything is created or locked, so a bad one is refused at
 * once instead of hanging or reading without end:
 * - a sink folder or checkpoint folder must be (or be creatable in) a writable directory on a real
 *   file system: never under /proc, /sys or /dev, nor on procfs/sysfs/devtmpfs mounted elsewhere;
 * - a file source must be a regular file or a folder of them: a device (/dev/zero), FIFO or socket
 *   never ends or blocks forever, and /proc files report sizes they do not have.
 * Refusals are `RunPathError`s naming the field (`nodes[1].config.path: ...`).
 */
import { accessSync, constants, realpathSync, statSync, statfsSync } from 'node:fs';
import { dirname, resolve as resolvePath, sep } from 'node:path';
import type { NormalizedJob } from '../../graph/types.ts';
import { storageRootOf } from '../../checkpoint/storage-factory.ts';
import { localFileOf } from '../../graph/local-files.ts';

export class RunPathError extends Error {
  override name = 'RunPathError';
}

const PSEUDO_ROOTS = ['/proc', '/sys', '/dev'];
// statfs f_type magic numbers (linux/magic.h): procfs, sysfs, devtmpfs/tmpfs-on-dev excluded on purpose.
const PSEUDO_FS = new Map<number, string>([
  [0x9fa0, 'procfs'],
  [0x62656572, 'sysfs'],
  [0x1373, 'devfs'],
  [0x64626720, 'debugfs'],
  [0x27e0eb, 'cgroupfs'],
  [0x63677270, 'cgroup2fs'],
]);

function underPseudoRoot(real: string): string | null {
  if (process.platform === 'win32') return null;
  return PSEUDO_ROOTS.find((r) => real === r || real.startsWith(r + sep)) ?? null;
}

function pseudoFs(real: string): string | null {
  try {
    return PSEUDO_FS.get(Number(statfsSync(real).type)) ?? null;
  } catch {
    return null;
  }
}

function deepestExisting(p: string): string {
  let cur = p;
  for (;;) {
    if (statSync(cur, { throwIfNoEntry: false })) return cur;
    const up = dirname(cur);
    if (up === cur) return cur;
    cur = up;
  }
}

export function checkWritableFolder(where: string, dir: string): void {
  const existing = deepestExisting(dir);
  const real = realpathSync(existing);
  const pseudo = underPseudoRoot(real) ?? pseudoFs(real);
  if (pseudo) throw new RunPathError(`${where}: ${dir} is on ${pseudo}, not a folder Weir can write output to`);
  const st = statSync(real);
  if (!st.isDirectory()) {
    throw new RunPathError(
      `${where}: ${existing === dir ? dir : existing} is not a folder${existing === dir ? '' : ` (needed to create ${dir})`}`,
    );
  }
  try {
    accessSync(real, constants.W_OK | constants.X_OK);
  } catch {
    throw new RunPathError(`${where}: ${existing} is not writable`);
  }
}

export function checkSourcePath(where: string, path: string): void {
  const st = statSync(path, { throwIfNoEntry: false });
  if (!st) return; // the source reports a missing file itself
  const real = realpathSync(path);
  const pseudo = underPseudoRoot(real) ?? pseudoFs(real);
  if (pseudo) throw new RunPathError(`${where}: ${path} is on ${pseudo}; a file source reads regular files only`);
  if (!st.isFile() && !st.isDirectory()) {
    throw new RunPathError(
      `${where}: ${path} is not a regular file (a device, FIFO or socket never ends); a file source reads ` +
        `regular files or a folder of them`,
    );
  }
}

/** Every path `job` reads or writes, checked; throws RunPathError on the first bad one. */
export function checkRunPaths(job: NormalizedJob): void {
  const base = job.baseDir ?? process.cwd();
  job.nodes.forEach((n, i) => {
    const file = localFileOf(n);
    if (!file) return;
    const check = file.access === 'read' ? checkSourcePath : checkWritableFolder;
    check(`nodes[${i}].config.${file.key}`, resolvePath(base, file.path));
  });
  if (job.settings.stateBackend !== 'memory' || job.settings.checkpointing.dir) {
    checkWritableFolder(
      'settings.checkpointing.dir',
      storageRootOf({ jobName: job.name, settings: job.settings, baseDir: job.baseDir }),
    );
  }
}
