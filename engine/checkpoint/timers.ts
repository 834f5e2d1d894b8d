/** Time and timers of the checkpoint coordinator, injectable so tests run on a manual clock. */
export interface TimerHandle {
  readonly __timer: true;
}

export interface CheckpointTimers {
  now(): number;
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

export const systemTimers: CheckpointTimers = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    const t = setTimeout(fn, ms);
    // A pending checkpoint timer must not keep a finished CLI process alive.
    t.unref?.();
    return t as unknown as TimerHandle;
  },
  clearTimeout: (h) => clearTimeout(h as unknown as NodeJS.Timeout),
};
