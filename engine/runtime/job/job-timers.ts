/**
 * The job master's clock and timers, injectable so its rules (restart delay, stop timeout, the
 * final checkpoint) are tested on a manual clock (test/engine/runtime/job/). The same timers drive
 * its checkpoint coordinator, so one manual clock moves both.
 */
import type { CheckpointTimers, TimerHandle } from '../../checkpoint/timers.ts';

export type { TimerHandle };

export interface JobTimers extends CheckpointTimers {
  /**
   * `keepAlive`: the timer keeps the host process alive until it fires. A restart delay needs it:
   * between two attempts no task process holds the event loop, and a CLI would exit mid-run.
   * Other timers (checkpoint timeouts, the stop kill) never keep a finished host alive.
   */
  setTimeout(fn: () => void, ms: number, o?: { keepAlive?: boolean }): TimerHandle;
}

export const systemJobTimers: JobTimers = {
  now: () => Date.now(),
  setTimeout: (fn, ms, o) => {
    const t = setTimeout(fn, ms);
    if (!o?.keepAlive) t.unref();
    return t as unknown as TimerHandle;
  },
  clearTimeout: (h) => clearTimeout(h as unknown as NodeJS.Timeout),
};
