/**
 * One run per job: an exclusive lock file in each folder a run writes (its checkpoint root and
 * every file-sink folder), taken before anything in them is read or changed.
 *
 * Rules:
 * - The lock is `<folder>/.weir-lock`, created with `open(path, 'wx')` (atomic on every local file
 *   system), holding the holder's pid, host, start time, job name and a random token.
 * - A lock whose holder is on this host and whose pid is gone is stale (the holder was SIGKILLed):
 *   it is moved aside with `rename` (only one taker wins that race) and taken over, with a message
 *   naming the dead holder. A lock of a live pid, or of another host, is never taken.
 * - A second run is refused at once with a `RunLockedError` naming the holder and the lock file.
 * - Release removes the lock only while it still carries this holder's token; a process exit
 *   removes the locks it still holds (a SIGKILL cannot, which is what the stale rule is for).
 */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  linkSync,
  mkdirSync,
  rmdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';

export const LOCK_FILE = '.weir-lock';

export interface LockHolder {
  pid: number;
  host: string;
  startedAt: string;
  job: string;
  token: string;
}

export class RunLockedError extends Error {
  override name = 'RunLockedError';
  constructor(
    message: string,
    readonly lockFile: string,
    readonly holder: LockHolder | null,
  ) {
    super(message);
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * When process `pid` started (epoch ms), from /proc on Linux; null elsewhere. A live pid that started
 * after the lock was written is not the holder: the holder died and the pid was reused.
 */
function processStartMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const ticks = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
    const btime = Number(/^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'))?.[1]);
    // USER_HZ is 100 on every Linux architecture Node supports.
    return Number.isFinite(ticks) && Number.isFinite(btime) ? btime * 1000 + ticks * 10 : null;
  } catch {
    return null;
  }
}

function holderRuns(h: LockHolder): boolean {
  if (!alive(h.pid)) return false;
  const started = processStartMs(h.pid);
  const locked = Date.parse(h.startedAt);
  // 2 s of slack for clock granularity (btime is in whole seconds).
  return started === null || !Number.isFinite(locked) || started <= locked + 2000;
}

function readHolder(path: string): LockHolder | null | 'missing' {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw e;
  }
  try {
    const h = JSON.parse(text) as LockHolder;
    return typeof h?.pid === 'number' && typeof h.host === 'string' ? h : null;
  } catch {
    return null;
  }
}

function describe(h: LockHolder): string {
  return `pid ${h.pid} on host ${h.host} (job '${h.job}', since ${h.startedAt})`;
}

/** A lock this process holds on one folder. */
export class RunLock {
  private released = false;
  /** The topmost folder `acquire` created, removed again on release when still empty. */
  private created: string | undefined;
  private constructor(
    readonly folder: string,
    readonly file: string,
    readonly holder: LockHolder,
  ) {}

  /**
   * Takes the lock on `folder` (created if missing) for `job`, or throws RunLockedError.
   * `notice` receives the take-over message when a dead holder's lock was replaced.
   */
  static acquire(folder: string, job: string, notice: (message: string) => void = () => {}): RunLock {
    const created = mkdirSync(folder, { recursive: true });
    const file = join(folder, LOCK_FILE);
    const me: LockHolder = {
      pid: process.pid,
      host: hostname(),
      startedAt: new Date().toISOString(),
      job,
      token: randomBytes(8).toString('hex'),
    };
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        const fd = openSync(file, 'wx');
        try {
          writeSync(fd, JSON.stringify(me));
        } finally {
          closeSync(fd);
        }
        const lock = new RunLock(folder, file, me);
        lock.created = created;
        return RunLock.track(lock);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      const held = readHolder(file);
      if (held === 'missing') continue; // released between our open and read: try again
      if (held === null) {
        // Unreadable: a holder between open and write, or a damaged file. Only an old one is stale.
        const age = Date.now() - (statSafe(file) ?? Date.now());
        if (age < 5000) {
          throw new RunLockedError(
            `${folder} is being locked by another run right now (${file}); try again, or remove ` +
              `${file} if no Weir run uses this folder`,
            file,
            null,
          );
        }
      } else if (held.host !== hostname() || holderRuns(held)) {
        throw new RunLockedError(
          `${folder} is in use by another run of Weir: ${describe(held)} holds ${file}. ` +
            `Wait for that run to end or stop it${held.host !== hostname() ? `; if it is really gone, delete ${file}` : ''}.`,
          file,
          held,
        );
      }
      // Stale: move it aside (one winner), check we moved what we judged, then retry the create.
      const aside = `${file}.stale-${me.token}`;
      try {
        renameSync(file, aside);
      } catch {
        continue;
      }
      const moved = readHolder(aside);
      const same = held === null ? moved === null : moved !== 'missing' && moved !== null && moved.token === held.token;
      if (!same) {
        // Another taker replaced the stale lock in between: put its lock back (never over a newer one).
        try {
          linkSync(aside, file);
        } catch {
          /* a newer lock exists; ours to retry against */
        }
        rmSync(aside, { force: true });
        continue;
      }
      rmSync(aside, { force: true });
      notice(
        held === null
          ? `took over an unreadable lock ${file} (older than 5s, no holder recorded)`
          : `took over the lock of ${describe(held)}, which no longer runs (${file})`,
      );
    }
    throw new RunLockedError(`${folder}: could not take the lock ${file}; another run keeps taking it`, file, null);
  }

  private static readonly held = new Set<RunLock>();
  private static exitHook = false;

  private static track(lock: RunLock): RunLock {
    RunLock.held.add(lock);
    if (!RunLock.exitHook) {
      RunLock.exitHook = true;
      process.on('exit', () => {
        for (const l of [...RunLock.held]) l.release();
      });
    }
    return lock;
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    RunLock.held.delete(this);
    const h = readHolder(this.file);
    if (h !== 'missing' && h !== null && h.token === this.holder.token) rmSync(this.file, { force: true });
    // A refused run leaves no trace: folders created only to hold the lock go again (if still empty).
    if (this.created) {
      for (let d = this.folder; d.length >= this.created.length; d = dirname(d)) {
        try {
          rmdirSync(d);
        } catch {
          break;
        }
      }
    }
  }
}

function statSafe(path: string): number | null {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return null;
  }
}

/** Locks on several folders, all or none; sorted so two runs never wait on each other in a cycle. */
export class RunLocks {
  private constructor(readonly locks: RunLock[]) {}

  static acquire(folders: readonly string[], job: string, notice?: (message: string) => void): RunLocks {
    const taken: RunLock[] = [];
    try {
      for (const f of [...new Set(folders)].sort()) taken.push(RunLock.acquire(f, job, notice));
    } catch (e) {
      for (const l of taken) l.release();
      throw e;
    }
    return new RunLocks(taken);
  }

  release(): void {
    for (const l of this.locks) l.release();
  }
}
