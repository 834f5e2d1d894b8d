/**
 * CPU time of this process and its child processes (the forked task processes), from /proc on
 * Linux: a "per core" figure is events per CPU-second, which a machine shared with other work
 * disturbs far less than events per wall-clock second. Null where /proc is missing.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Linux's USER_HZ: /proc/<pid>/stat counts CPU time in these ticks (100 on every mainstream kernel). */
const TICKS_PER_SECOND = 100;

function childPids(parent: number): number[] {
  const out: number[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      // Fields after the command name (which may hold spaces, inside parentheses).
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(rest[1]) === parent) out.push(Number(d));
    } catch {
      // the process ended while we looked
    }
  }
  return out;
}

function ticksOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of stat, i.e. 11 and 12 after the state field.
    return Number(rest[11]) + Number(rest[12]);
  } catch {
    return 0;
  }
}

export interface CpuSample {
  /** CPU seconds per child pid. */
  children: Map<number, number>;
  /** This process's CPU seconds. */
  self: number;
}

export function sampleCpu(): CpuSample | null {
  try {
    readdirSync('/proc/self');
  } catch {
    return null;
  }
  const children = new Map<number, number>();
  for (const pid of childPids(process.pid)) children.set(pid, ticksOf(pid) / TICKS_PER_SECOND);
  const u = process.cpuUsage();
  return { children, self: (u.user + u.system) / 1e6 };
}

/** CPU seconds spent between two samples by the children alive at the first, and by this process. */
export function cpuBetween(a: CpuSample, b: CpuSample): { children: number; self: number } {
  let children = 0;
  for (const [pid, t0] of a.children) children += Math.max(0, (b.children.get(pid) ?? t0) - t0);
  return { children, self: b.self - a.self };
}
